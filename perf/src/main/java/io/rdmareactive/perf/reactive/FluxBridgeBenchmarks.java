package io.rdmareactive.perf.reactive;

import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.Link;
import io.rdmareactive.perf.compare.transport.RawSpiTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.Session;
import io.rdmareactive.perf.compare.transport.SessionSpec;
import io.rdmareactive.perf.compare.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A round trip through the {@code Flux} bridge next to the same round trip at the provider SPI, both over the
 * shared-memory provider in this JVM, with the comparison's transports: {@code flux} sends through
 * {@code Outbound.send} and receives the echo from {@code Inbound.receiveViews()} (worker and driver threads on both
 * sides); {@code raw} writes and polls at the SPI. The difference is what the protocol and the reactive layer cost
 * per round trip; {@code -prof gc} shows their allocation. Threads yield when idle (a 2-core machine).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class FluxBridgeBenchmarks {

    @Param({"flux", "raw"})
    public String path;

    @Param({"32"})
    public int size;

    private Path directory;
    private Transport transport;
    private Session session;
    private Link link;
    private UnsafeBuffer payload;
    private final IdleStrategy idle = Idle.YIELDING.newStrategy();
    private volatile long echoed = -1;
    private long sequence;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        directory = Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir")), "rdma-reactive-jmh-");
        transport = path.equals("flux") ? new ReactiveTransport("shm", Idle.YIELDING, directory, null)
            : new RawSpiTransport("shm", Idle.YIELDING, directory, null);
        session = transport.open(SessionSpec.echo(size, (buffer, offset, length) -> echoed = buffer.getLong(offset)));
        link = session.link(0);
        payload = new UnsafeBuffer(new byte[size]);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        session.close();
        transport.close();
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
    }

    @Benchmark
    public long roundTrip() {
        final long current = sequence++;
        payload.putLong(0, current);
        idle.reset();
        while (!link.offer(payload, 0, size)) {
            link.poll();
            idle.idle();
        }
        idle.reset();
        while (echoed < current) {
            if (link.poll() == 0) {
                idle.idle();
            }
        }
        return current;
    }
}
