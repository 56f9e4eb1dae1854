package io.rdmareactive.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
// tag::session[]
import io.rdmareactive.codec.Codecs;
// end::session[]
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
// tag::session[]
import java.time.Duration;
// end::session[]
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
// tag::session[]
import reactor.core.publisher.Flux;
import reactor.util.retry.Retry;
// end::session[]

/**
 * Each fault of {@link Fault} under the public API: a client configured to reconnect (Reactor's
 * {@code retryWhen(Retry.backoff(...))} around {@code connect()} and the work on the connection, the way
 * docs/reliability.md shows) has its first connection struck by the fault ({@link FaultInjectingProvider}) while it
 * sends numbers to an echo, one request/response at a time (so that every message is a post and a completion of its
 * own, and the fault strikes where its seed says). Where the protocol promises recovery the connection carries on;
 * otherwise it ends with an error that names the fault, the client connects again after a backoff and resumes with
 * the first number not echoed yet. Either way every number comes back once, in order, and nothing is left behind
 * (files, threads).
 * The seeds are {@link FaultInjectionTest}'s: {@code -Dfault.seeds=N} (seeds 1 to N, 2 by default) or
 * {@code -Dfault.seed=S} to replay one.
 */
class FaultReconnectTest {

    /** Numbers sent to the echo. */
    private static final int NUMBERS = 3_000;
    private static final Duration BOUND = Duration.ofSeconds(Integer.getInteger("rr.test.boundSeconds", 60));

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("io.rdmareactive.fault.FaultInjectionTest#cases")
    void aClientConfiguredToReconnectComesBackAfterTheFaultAndLosesNothing(final Fault fault, final long seed)
        throws IOException {
        final Set<Thread> threadsBefore = Thread.getAllStackTraces().keySet();
        final Path directory = Files.createTempDirectory(Path.of("/tmp"), "rr");
        final String address = "reconnect-" + fault.name().toLowerCase(java.util.Locale.ROOT) + "-" + seed;
        final DisposableServer server = RdmaServer.create().provider("shm").directory(directory).address(address)
            .idleStrategy("backoff")
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.INT), Codecs.INT))
            .bind().block(BOUND);
        final FaultInjector injector = new FaultInjector(fault, seed);
        FaultInjectingProvider.arm(injector);
        final RdmaClient client = RdmaClient.create().provider(FaultInjectingProvider.NAME).directory(directory)
            .address(address).idleStrategy("backoff");

        final List<Integer> echoed = new CopyOnWriteArrayList<>();
        final List<String> failures = new CopyOnWriteArrayList<>();
        final AtomicInteger connections = new AtomicInteger();
        try {
            // the application's reconnecting session: connect, stream from the first number not yet echoed, and on
            // an error start again after a backoff
            // tag::session[]
            Flux.defer(() -> {
                final int from = echoed.size();
                return client.connect().doOnNext(connection -> connections.incrementAndGet())
                    .flatMapMany(connection -> Flux.range(from, NUMBERS - from)
                        .concatMap(number -> connection.requestResponse(number, Codecs.INT, Codecs.INT))
                        .doFinally(signal -> connection.dispose()));
            })
                .doOnNext(echoed::add)
                .retryWhen(Retry.backoff(10, Duration.ofMillis(20)).maxBackoff(Duration.ofMillis(200))
                    .doBeforeRetry(signal -> failures.add(signal.failure().getMessage())))
                .blockLast(BOUND);
            // end::session[]
        } finally {
            server.dispose();
            server.onDispose().onErrorComplete().block(BOUND);
        }
        System.out.println("fault " + fault + " seed " + seed + " under the API: " + injector.injected()
            + "; connections " + connections + "; failures " + failures);

        assertThat(injector.injected()).as("the fault struck the first connection").isNotNull();
        assertThat(echoed).as("the numbers echoed, over every connection").hasSize(NUMBERS)
            .isEqualTo(java.util.stream.IntStream.range(0, NUMBERS).boxed().toList());
        if (fault.recoverable()) {
            assertThat(failures).as("failures of a fault the protocol recovers from").isEmpty();
            assertThat(connections).as("connections").hasValue(1);
        } else {
            assertThat(failures).as("why the first connection ended").singleElement().asString()
                .contains(FaultInjectionTest.expectedError(fault));
            assertThat(connections).as("connections: the struck one, and the one it came back with").hasValue(2);
        }
        // the last connection's disposal (doFinally above) runs on, asynchronously, after blockLast returned
        Awaitility.await().atMost(BOUND).untilAsserted(() -> {
            try (Stream<Path> files = Files.list(directory)) {
                assertThat(files.map(path -> path.getFileName().toString()).toList()).as("files left").isEmpty();
            }
        });
        Files.delete(directory);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> !threadsBefore.contains(thread) && thread.isAlive())
                .map(Thread::getName)
                .filter(name -> name.startsWith("rdma-")).toList()).as("threads left").isEmpty());
    }
}
