package io.rdmareactive.perf.ring;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.ring.RingBuffers;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
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
 * One message written into and read back out of the Agrona rings that {@code ring-buffers} lays over off-heap
 * memory (the command queues from application threads to the driver), on one thread: the cost of a claim, copy,
 * commit and a read, with no other thread in the way. {@code -prof gc} should show 0 bytes per operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class RingBenchmarks {

    private static final int CAPACITY = 64 * 1024;

    @Param({"32", "256"})
    public int size;

    private OffHeapMemory memory;
    private OneToOneRingBuffer oneToOne;
    private ManyToOneRingBuffer manyToOne;
    private UnsafeBuffer message;
    private long checksum;
    private final MessageHandler reader = (type, buffer, index, length) -> checksum += buffer.getLong(index);

    @Setup(Level.Trial)
    public void setUp() {
        final int length = (RingBuffers.requiredLength(CAPACITY) + 4095) & -4096; // whole pages, each ring
        memory = OffHeapMemory.allocate(2L * length);
        oneToOne = RingBuffers.oneToOne(memory, 0, CAPACITY);
        manyToOne = RingBuffers.manyToOne(memory, length, CAPACITY);
        message = new UnsafeBuffer(new byte[size]);
        message.putLong(0, 42);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        memory.close();
    }

    private long writeAndRead(final RingBuffer ring) {
        if (!ring.write(1, message, 0, size)) {
            throw new IllegalStateException("the ring is full");
        }
        readOne(ring);
        return checksum;
    }

    /** At the end of the ring a read stops after the padding record, so the message at its start takes a second. */
    private void readOne(final RingBuffer ring) {
        while (ring.read(reader, 1) == 0) {
            Thread.onSpinWait();
        }
    }

    @Benchmark
    public long oneToOneWriteRead() {
        return writeAndRead(oneToOne);
    }

    @Benchmark
    public long manyToOneWriteRead() {
        return writeAndRead(manyToOne);
    }

    @Benchmark
    public long oneToOneClaimCommitRead() {
        final int index = oneToOne.tryClaim(1, size);
        if (index < 0) {
            throw new IllegalStateException("the ring is full");
        }
        oneToOne.buffer().putLong(index, 42);
        oneToOne.commit(index);
        readOne(oneToOne);
        return checksum;
    }
}
