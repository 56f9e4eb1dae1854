package io.rdmareactive.perf.reactive;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.perf.compare.transport.Idle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.IdleStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import reactor.core.publisher.BaseSubscriber;

/**
 * One {@code Connection.requestResponse} call per operation, one in flight, over the shared-memory provider: the
 * server answers each 32-byte request with the same bytes ({@code handleStreams}), the benchmark thread subscribes and
 * waits, yielding, for the answer. Client and server share the process's runtime and its event loop, as in an
 * application. {@code -prof gc}'s {@code gc.alloc.rate.norm} is the bytes the whole JVM allocated per call: the
 * benchmark's subscriber, the request's Reactor chain, the stream's inbound and outbound, the answer's array.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class FluxRequestResponseBenchmarks {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger SERVERS = new AtomicInteger();

    private Path directory;
    private DisposableServer server;
    private Connection connection;
    private final byte[] request = new byte[32];
    private final IdleStrategy idle = Idle.YIELDING.newStrategy();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        directory = Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir")), "rdma-reactive-jmh-");
        final String address = "jmh-rr-" + ProcessHandle.current().pid() + "-" + SERVERS.incrementAndGet();
        server = RdmaServer.create().provider("shm").address(address).directory(directory)
            .idleStrategy(Idle.YIELDING.spec())
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.BYTE_ARRAY).next(), Codecs.BYTE_ARRAY))
            .bind().block(TIMEOUT);
        connection = RdmaClient.create().provider("shm").address(address).directory(directory)
            .idleStrategy(Idle.YIELDING.spec()).connect().block(TIMEOUT);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        connection.dispose();
        connection.onDispose().onErrorComplete().block(TIMEOUT);
        server.dispose();
        server.onDispose().onErrorComplete().block(TIMEOUT);
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
    }

    /** One call: subscribe, wait for the answer, check its length. */
    @Benchmark
    public int call() {
        final Answer answer = new Answer();
        connection.requestResponse(request, Codecs.BYTE_ARRAY, Codecs.BYTE_ARRAY).subscribe(answer);
        idle.reset();
        while (!answer.done) {
            idle.idle();
        }
        if (answer.error != null) {
            throw new IllegalStateException("the call failed: " + answer.error, answer.error);
        }
        if (answer.value == null || answer.value.length != request.length) {
            throw new IllegalStateException("the answer has the wrong length");
        }
        return answer.value.length;
    }

    /** The call's subscriber: the answer or the error, then done. */
    private static final class Answer extends BaseSubscriber<byte[]> {
        volatile boolean done;
        byte[] value;
        Throwable error;

        @Override
        protected void hookOnNext(final byte[] next) {
            value = next;
        }

        @Override
        protected void hookOnError(final Throwable throwable) {
            error = throwable;
        }

        @Override
        protected void hookFinally(final reactor.core.publisher.SignalType type) {
            done = true;
        }
    }
}
