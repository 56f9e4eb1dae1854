package io.rdmareactive.perf.protocol;

import io.rdmareactive.internal.protocol.FrameHeaderFlyweight;
import io.rdmareactive.internal.protocol.RequestNFlyweight;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The wire protocol's flyweights (core internals, which perf may use): writing and reading a frame header, and
 * writing and checking a REQUEST_N frame, in an off-heap buffer standing in for a ring. Allocation per operation,
 * with {@code -prof gc}, should be 0.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class FlyweightBenchmarks {

    private static final int AT = 64;

    private final UnsafeBuffer buffer = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096));
    private final FrameHeaderFlyweight header = new FrameHeaderFlyweight();
    private final RequestNFlyweight requestN = new RequestNFlyweight();
    private long n;

    @Setup(Level.Trial)
    public void setUp() {
        header.wrap(buffer, AT);
        requestN.wrap(buffer, AT);
    }

    @Benchmark
    public int frameHeaderWriteRead() {
        header.wrap(buffer, AT).frameLength(40).type(FrameHeaderFlyweight.DATA).flags(FrameHeaderFlyweight.WHOLE);
        return header.wrap(buffer, AT).frameLength() + header.type() + header.flags();
    }

    @Benchmark
    public int requestNWriteCheck() {
        requestN.wrap(buffer, AT).write(3, 1, ++n);
        return RequestNFlyweight.check(buffer, AT, RequestNFlyweight.LENGTH, 16);
    }
}
