package io.rdmareactive.samples.docs;

// tag::retry[]
import io.rdmareactive.Connection;
import io.rdmareactive.RdmaClient;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;
// end::retry[]

/** reliability.md's reconnecting client: each subscription to {@code connect()} is a new attempt. */
public final class Reconnecting {

    private Reconnecting() {
    }

    /**
     * @param address where the server listens, or will
     * @return a connection to it, tried again with backoff until it is up
     */
    public static Mono<Connection> connection(final String address) {
        // tag::retry[]
        Mono<Connection> connection = RdmaClient.create().provider("shm").address(address)
            .connectTimeout(Duration.ofSeconds(2)).connect()
            .retryWhen(Retry.backoff(50, Duration.ofMillis(20)).maxBackoff(Duration.ofMillis(200)));
        // end::retry[]
        return connection;
    }
}
