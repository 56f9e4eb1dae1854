package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * {@link RdmaClient#reconnect(Retry)}: the handle comes back to a server disposed of and bound again at the same
 * address, and the calls made meanwhile go to the new connection; a call in flight when its connection ends fails and
 * is not repeated; disposing of the handle stops its attempts.
 */
class ReconnectingConnectionTest {

    @ShmTestDirectory
    private Path directory;

    /** An echo server that notes each request it receives. */
    private DisposableServer echo(final String address, final List<String> received) {
        return ShmTestSupport.server(directory, address)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).doOnNext(received::add)
                .flatMap(text -> text.startsWith("hang") ? Mono.never() : Mono.just(text)), Codecs.UTF8_STRING))
            .bindNow(ShmTestSupport.BOUND);
    }

    private static void disposeAndWait(final DisposableServer server) {
        server.dispose();
        server.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
    }

    @Test
    void itReconnectsToAServerBoundAgainAndCallsMadeMeanwhileGoToTheNewConnection() {
        final String address = ShmTestSupport.uniqueAddress("reconnecting");
        final List<String> first = new CopyOnWriteArrayList<>();
        final DisposableServer server = echo(address, first);
        final ReconnectingConnection connection = ShmTestSupport.client(directory, address)
            .connectTimeout(ShmTestSupport.BOUND)
            .reconnect(Retry.fixedDelay(Long.MAX_VALUE, Duration.ofMillis(20)));
        try {
            assertThat(connection.requestResponse("before", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("before");
            assertThat(connection.connections()).isEqualTo(1);
            final Connection before = connection.current().orElseThrow();

            disposeAndWait(server);
            await().atMost(ShmTestSupport.BOUND).until(() -> connection.current().isEmpty());
            assertThat(before.isDisposed()).isTrue();

            // made while the server is away: waits for the next connection
            final Mono<String> during = connection.requestResponse("while away", Codecs.UTF8_STRING,
                Codecs.UTF8_STRING).cache();
            during.subscribe(ignored -> { }, ignored -> { });
            final List<String> second = new CopyOnWriteArrayList<>();
            final DisposableServer again = echo(address, second);
            try {
                assertThat(during.block(ShmTestSupport.BOUND)).isEqualTo("while away");
                assertThat(connection.requestResponse("after", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("after");
                assertThat(connection.connections()).as("connections made, the first one included").isEqualTo(2);
                assertThat(connection.current()).get().isNotSameAs(before);
                assertThat(first).containsExactly("before");
                assertThat(second).containsExactly("while away", "after");
            } finally {
                connection.dispose();
                connection.onDispose().block(ShmTestSupport.BOUND);
                disposeAndWait(again);
            }
        } finally {
            connection.dispose();
            if (!server.isDisposed()) {
                disposeAndWait(server);
            }
        }
    }

    @Test
    void aCallInFlightWhenItsConnectionEndsFailsAndIsNotRepeated() throws InterruptedException {
        final String address = ShmTestSupport.uniqueAddress("reconnecting-inflight");
        final List<String> first = new CopyOnWriteArrayList<>();
        final DisposableServer server = echo(address, first);
        final ReconnectingConnection connection = ShmTestSupport.client(directory, address)
            .requestTimeout(Duration.ofMinutes(5)).connectTimeout(ShmTestSupport.BOUND)
            .reconnect(Retry.fixedDelay(Long.MAX_VALUE, Duration.ofMillis(20)));
        try {
            final CountDownLatch failed = new CountDownLatch(1);
            final AtomicLong failures = new AtomicLong();
            final java.util.concurrent.atomic.AtomicReference<Throwable> error =
                new java.util.concurrent.atomic.AtomicReference<>();
            connection.requestResponse("hang", Codecs.UTF8_STRING, Codecs.UTF8_STRING).subscribe(ignored -> { },
                failure -> {
                    error.set(failure);
                    failures.incrementAndGet();
                    failed.countDown();
                });
            await().atMost(ShmTestSupport.BOUND).until(() -> first.contains("hang"));

            disposeAndWait(server);
            assertThat(failed.await(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS)).as("the call failed").isTrue();
            assertThat(error.get()).isInstanceOf(RdmaConnectionException.class).hasMessageContaining("ended");

            final List<String> second = new CopyOnWriteArrayList<>();
            final DisposableServer again = echo(address, second);
            try {
                assertThat(connection.requestResponse("next", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("next");
                assertThat(second).as("what the new server received: the failed call was not sent again")
                    .containsExactly("next");
                assertThat(failures.get()).isEqualTo(1);
            } finally {
                connection.dispose();
                disposeAndWait(again);
            }
        } finally {
            connection.dispose();
        }
    }

    @Test
    void disposingStopsTheAttemptsAndFailsTheCalls() throws InterruptedException {
        final String address = ShmTestSupport.uniqueAddress("reconnecting-nobody");
        final AtomicInteger retries = new AtomicInteger();
        final ReconnectingConnection connection = ShmTestSupport.client(directory, address)
            .connectTimeout(ShmTestSupport.BOUND)
            .reconnect(Retry.fixedDelay(Long.MAX_VALUE, Duration.ofMillis(100))
                .doBeforeRetry(signal -> retries.incrementAndGet()));
        final Mono<Connection> waiting = connection.connection().cache();
        waiting.subscribe(ignored -> { }, ignored -> { });
        await().atMost(ShmTestSupport.BOUND).until(() -> retries.get() >= 2);

        connection.dispose();
        assertThat(connection.isDisposed()).isTrue();
        connection.onDispose().block(ShmTestSupport.BOUND);
        assertThatThrownBy(() -> waiting.block(ShmTestSupport.BOUND)).as("a call that waited for a connection")
            .isInstanceOf(RdmaConnectionException.class).hasMessageContaining("disposed");
        assertThatThrownBy(() -> connection.requestResponse("late", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isInstanceOf(RdmaConnectionException.class).hasMessageContaining("disposed");

        // a server now there is never reached, and no attempt follows: ten retry delays pass without one (one that
        // was already on its way as dispose() ran may still be counted)
        final int atDispose = retries.get();
        final AtomicInteger accepted = new AtomicInteger();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .doOnConnection(ignored -> accepted.incrementAndGet()).bindNow(ShmTestSupport.BOUND);
        try {
            Thread.sleep(1_000);
            assertThat(retries.get()).isLessThanOrEqualTo(atDispose + 1);
            assertThat(connection.connections()).isZero();
            assertThat(connection.current()).isEmpty();
        } finally {
            disposeAndWait(server);
        }
    }

    @Test
    void aRetryThatGivesUpEndsTheHandleWithTheLastFailure() {
        final String address = ShmTestSupport.uniqueAddress("reconnecting-giveup");
        final ReconnectingConnection connection = ShmTestSupport.client(directory, address)
            .reconnect(Retry.fixedDelay(2, Duration.ofMillis(10)));
        assertThatThrownBy(() -> connection.onDispose().block(ShmTestSupport.BOUND))
            .isInstanceOf(RdmaConnectionException.class).hasMessageContaining("gave up connecting to '" + address);
        assertThat(connection.isDisposed()).isTrue();
        assertThatThrownBy(() -> connection.connection().block(ShmTestSupport.BOUND))
            .isInstanceOf(RdmaConnectionException.class).hasMessageContaining("gave up");
    }

    @Test
    void aReconnectingConnectionNeedsAnAddress() {
        assertThatThrownBy(() -> RdmaClient.create().reconnect(Retry.max(1)))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("address");
    }
}
