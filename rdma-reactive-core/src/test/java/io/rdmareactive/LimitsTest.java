package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limits a server enforces, each with an error that names it: connections at once
 * ({@link RdmaServer#maxConnections}), registered memory ({@link RdmaServer#maxRegisteredBytes}), streams per
 * connection and ring size ({@code rings}), message size ({@code maxMessageLength}). A client refused for a limit
 * leaves the connections already served undisturbed.
 */
class LimitsTest {

    @ShmTestDirectory
    private Path directory;

    private DisposableServer echo(final String address, final RdmaServer server) {
        return server.handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
    }

    @Test
    void aClientBeyondMaxConnectionsIsRefusedNamingTheLimitAndTheOthersCarryOn() {
        final String address = ShmTestSupport.uniqueAddress("max-connections");
        final DisposableServer server = echo(address, ShmTestSupport.server(directory, address).maxConnections(2));
        try {
            final Connection first = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
            final Connection second = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND))
                .hasMessageContaining("refused the connection: the server serves its maximum of 2 connections "
                    + "(RdmaServer.maxConnections)");
            assertThat(first.requestResponse("one", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("one");
            assertThat(second.requestResponse("two", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("two");

            // a place freed is a place again
            first.dispose();
            first.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            Connection third = null;
            for (int attempt = 0; attempt < 100 && third == null; attempt++) { // the server sees the end shortly after
                try {
                    third = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
                } catch (final RuntimeException refused) {
                    assertThat(refused).hasMessageContaining("maximum of 2 connections");
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
                }
            }
            assertThat(third).as("a connection once one was closed").isNotNull();
            assertThat(third.requestResponse("three", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("three");
            third.dispose();
            second.dispose();
            third.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            second.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        } finally {
            server.dispose();
        }
    }

    @Test
    void aConnectionBeyondMaxRegisteredBytesIsRefusedNamingTheLimitAndTheOthersCarryOn() {
        final String address = ShmTestSupport.uniqueAddress("max-registered");
        // 4 streams of 4 KiB: two regions of about 20 KiB each a connection; room for one connection, not two
        final DisposableServer server = echo(address, ShmTestSupport.server(directory, address).rings(4, 4096)
            .maxRegisteredBytes(64 * 1024));
        try {
            final Connection first = ShmTestSupport.client(directory, address).rings(4, 4096).connect()
                .block(ShmTestSupport.BOUND);
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).rings(4, 4096).connect()
                .block(ShmTestSupport.BOUND))
                .hasMessageContaining("refused the connection: the listener cannot allocate the connection: "
                    + "registering 20480 more bytes would bring");
            assertThat(first.requestResponse("still here", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("still here");
            first.dispose();
            first.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        } finally {
            server.dispose();
        }
    }

    @Test
    void aClientAskingForMoreStreamsOrLargerRingsThanTheServerAllowsIsRefusedNamingBoth() {
        final String address = ShmTestSupport.uniqueAddress("max-streams");
        final DisposableServer server = echo(address, ShmTestSupport.server(directory, address).rings(4, 8192));
        try {
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).rings(8, 8192).connect()
                .block(ShmTestSupport.BOUND))
                .hasMessageContaining("the peer asks for 8 streams; this side allows 2 to 4");
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).rings(4, 16384).connect()
                .block(ShmTestSupport.BOUND))
                .hasMessageContaining("the peer asks for rings of 16384 bytes; this side allows 4096 to 8192");
        } finally {
            server.dispose();
        }
    }

    @Test
    void callsBeyondTheCallIdsWaitInOrderAndBeyondTheWaitingBoundFailWithATypedError() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("calls-busy");
        final reactor.core.publisher.Sinks.Empty<Void> release = reactor.core.publisher.Sinks.empty();
        final java.util.concurrent.atomic.AtomicInteger held = new java.util.concurrent.atomic.AtomicInteger();
        // the server holds each call until released
        final DisposableServer server = ShmTestSupport.server(directory, address).rings(4, 4096)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING)
                .doOnNext(ignored -> held.incrementAndGet())
                .delayUntil(ignored -> release.asMono()), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        try {
            // 4 streams: 2 for the connection itself, one request stream each way; the client's one carries the calls
            final Connection connection = ShmTestSupport.client(directory, address).rings(4, 4096).connect()
                .block(ShmTestSupport.BOUND);
            final int inFlight = io.rdmareactive.internal.protocol.CallHeaderFlyweight.MAX_CALLS;
            final int calls = inFlight + DefaultConnection.MAX_WAITING_REQUESTS;
            final List<reactor.core.publisher.Mono<String>> requests = new java.util.ArrayList<>();
            for (int i = 0; i < calls; i++) {
                final reactor.core.publisher.Mono<String> request = connection
                    .requestResponse("r" + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING).cache();
                request.subscribe(ignored -> { }, ignored -> { });
                requests.add(request);
            }
            // every call id is taken and the waiting bound reached: the next call is refused, nothing sent
            assertThatThrownBy(() -> connection.requestResponse("one too many", Codecs.UTF8_STRING,
                Codecs.UTF8_STRING).block(ShmTestSupport.BOUND))
                .isInstanceOf(RdmaStreamsBusyException.class)
                .hasMessageContaining("all " + inFlight + " calls of this connection are in flight and "
                    + DefaultConnection.MAX_WAITING_REQUESTS + " more wait");
            // the server serves all of the calls in flight at once, in one request stream of 4 KiB rings
            final long deadline = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
            while (held.get() < inFlight && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(held.get()).as("calls the server held at once").isEqualTo(inFlight);
            release.tryEmitEmpty();
            for (int i = 0; i < calls; i++) {
                assertThat(requests.get(i).block(ShmTestSupport.BOUND)).as("answer %d", i).isEqualTo("r" + i);
            }
            connection.dispose();
            connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        } finally {
            server.dispose();
        }
    }

    @Test
    void aMessageOverTheAgreedMaximumLengthFailsItsSendNamingBothAndTheConnectionCarriesOn() {
        final String address = ShmTestSupport.uniqueAddress("max-message");
        final DisposableServer server = echo(address, ShmTestSupport.server(directory, address));
        try {
            // the client's smaller maximum is the one both sides agree on
            final Connection connection = ShmTestSupport.client(directory, address).maxMessageLength(4096).connect()
                .block(ShmTestSupport.BOUND);
            assertThatThrownBy(() -> connection.requestResponse("x".repeat(5000), Codecs.UTF8_STRING,
                Codecs.UTF8_STRING).block(ShmTestSupport.BOUND))
                .hasMessageContaining("encoded a request of 5000 bytes, over the connection's maximum of 4096");
            assertThat(connection.requestResponse("y".repeat(4096), Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).hasSize(4096); // a call carries a message of the maximum
            connection.dispose();
            connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        } finally {
            server.dispose();
        }
    }
}
