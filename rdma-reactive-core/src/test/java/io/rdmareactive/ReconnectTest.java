package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Reconnecting: {@link RdmaClient#connect()} is lazy, a new connection attempt for each subscription, so Reactor's
 * {@code retryWhen(Retry.backoff(...))} is the client's reconnect option: it retries a refused or failed connect
 * with exponential backoff, and, subscribed again once a connection ends, brings the client back to a server that
 * came back. ({@link RdmaClient#reconnect(reactor.util.retry.Retry)} packs this into a handle that connects again
 * by itself; see {@code ReconnectingConnectionTest}. A connection's streams end with it, and which of them to open
 * again is the application's choice.)
 */
class ReconnectTest {

    @ShmTestDirectory
    private Path directory;

    private DisposableServer start(final String address) {
        return ShmTestSupport.server(directory, address)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
    }

    private Mono<Connection> reconnecting(final String address, final AtomicInteger attempts) {
        return ShmTestSupport.client(directory, address).connectTimeout(Duration.ofSeconds(2)).connect()
            .doOnSubscribe(subscription -> attempts.incrementAndGet())
            .retryWhen(Retry.backoff(50, Duration.ofMillis(20)).maxBackoff(Duration.ofMillis(200)));
    }

    @Test
    void aClientRetriesWithBackoffUntilTheServerIsUpAndComesBackAfterItRestarts() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("reconnect");
        final AtomicInteger attempts = new AtomicInteger();
        // the client first: nobody listens yet, so its first attempts fail at once and are retried
        final CompletableFuture<Connection> first = reconnecting(address, attempts).toFuture();
        while (attempts.get() < 3) {
            Thread.onSpinWait();
        }
        DisposableServer server = start(address);
        final Connection connection = first.get(30, TimeUnit.SECONDS);
        assertThat(attempts.get()).as("attempts before the server was up, and the one that connected")
            .isGreaterThanOrEqualTo(3);
        assertThat(connection.requestResponse("one", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isEqualTo("one");

        // the server goes away: the connection ends; the client reconnects once it is back
        server.dispose();
        connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        assertThat(connection.isDisposed()).isTrue();
        attempts.set(0);
        final CompletableFuture<Connection> again = reconnecting(address, attempts).toFuture();
        while (attempts.get() < 2) {
            Thread.onSpinWait();
        }
        server = start(address);
        try {
            final Connection back = again.get(30, TimeUnit.SECONDS);
            assertThat(back.requestResponse("two", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("two");
            back.dispose();
            back.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        } finally {
            server.dispose();
        }
    }
}
