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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * One stream of messages through the {@code Flux} API and nothing else: {@code Outbound.send} of a source that emits
 * one preallocated buffer whenever it is asked (so the source allocates nothing), over the shared-memory provider,
 * into {@code Inbound.receiveViews()} on the server, whose subscriber only checks each view's length and counts it.
 * Both sides run on the process's runtime, as in an application; the benchmark thread only waits until
 * {@value #MESSAGES} more messages arrived. One operation is one message, so {@code -prof gc}'s
 * {@code gc.alloc.rate.norm} is the bytes the whole JVM allocated per message sent and received. Threads yield when
 * idle (a 2-core machine).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class FluxStreamBenchmarks {

    /** Messages per benchmark invocation. */
    static final int MESSAGES = 10_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger SERVERS = new AtomicInteger();

    @Param({"32", "4096"})
    public int size;

    private Path directory;
    private DisposableServer server;
    private Connection connection;
    private Disposable sending;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong wrongLength = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final IdleStrategy idle = Idle.YIELDING.newStrategy();
    private long target;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        directory = Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir")), "rdma-reactive-jmh-");
        final String address = "jmh-stream-" + ProcessHandle.current().pid() + "-" + SERVERS.incrementAndGet();
        final int maxLength = Math.max(size, 4096);
        final int expected = size;
        server = RdmaServer.create().provider("shm").address(address).directory(directory)
            .idleStrategy(Idle.YIELDING.spec()).maxMessageLength(maxLength)
            .handle((in, out) -> in.receiveViews()
                .doOnNext(view -> {
                    if (view.capacity() != expected) {
                        wrongLength.incrementAndGet();
                    }
                    received.lazySet(received.get() + 1); // one writer: the connection's event loop
                })
                .doOnError(failure::set)
                .then())
            .bind().block(TIMEOUT);
        connection = RdmaClient.create().provider("shm").address(address).directory(directory)
            .idleStrategy(Idle.YIELDING.spec()).maxMessageLength(maxLength)
            .connect().block(TIMEOUT);
        final DirectBuffer message = new UnsafeBuffer(new byte[size]);
        final Flux<DirectBuffer> source = Flux.generate(sink -> sink.next(message));
        sending = connection.outbound().send(source, Codecs.DIRECT_BUFFER).subscribe(null, failure::set);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        sending.dispose();
        connection.dispose();
        connection.onDispose().onErrorComplete().block(TIMEOUT);
        server.dispose();
        server.onDispose().onErrorComplete().block(TIMEOUT);
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
        if (wrongLength.get() != 0) {
            throw new IllegalStateException(wrongLength.get() + " messages arrived with the wrong length");
        }
    }

    /** Waits until {@value #MESSAGES} more messages arrived (the stream runs on the library's threads). */
    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long stream() {
        target = Math.max(target, received.get()) + MESSAGES;
        idle.reset();
        while (received.get() < target) {
            final Throwable cause = failure.get();
            if (cause != null) {
                throw new IllegalStateException("the stream failed: " + cause, cause);
            }
            idle.idle();
        }
        return target;
    }
}
