package io.rdmareactive.perf.compare;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The copy baseline beside throughput: one thread copying a message of {@code size} bytes from one native buffer
 * into the next slot of a ring of native destination buffers ({@code MemorySegment.copy}), as fast as it can, for
 * the warm-up and then the measured time. The ring spans at least {@link #RING_BYTES} (8 MiB: beyond L1 and L2, so
 * the destinations are not all cached), the source stays the same buffer, as a sender's usually does. Each copy
 * carries its number in its first 8 bytes, and the last one is checked, so the copies cannot be skipped unseen.
 */
final class MemcpyWorkload {

    static final long RING_BYTES = 8L << 20;
    private static final ValueLayout.OfLong NUMBER = ValueLayout.JAVA_LONG_UNALIGNED;

    private MemcpyWorkload() {
    }

    static Results.Memcpy run(final int size, final Settings settings, final Progress.Point progress) {
        final int destinations = (int) Math.max(2, (RING_BYTES + size - 1) / size);
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment source = arena.allocate(size, 64);
            for (long i = 0; i < size; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31));
            }
            final MemorySegment ring = arena.allocate((long) size * destinations, 64);
            final Loop loop = new Loop(source, ring, size, destinations);
            loop.run(settings.warmUp().toNanos(), progress, 0);
            final long copiesBefore = loop.copies;
            final long start = System.nanoTime();
            loop.run(settings.duration().toNanos(), progress, settings.warmUp().toMillis());
            final double seconds = (System.nanoTime() - start) / 1e9;
            loop.checkLast();
            final long copies = loop.copies - copiesBefore;
            final double bytesPerSecond = copies * (double) size / seconds;
            return new Results.Memcpy(size, destinations, (long) size * destinations, copies, copies / seconds,
                bytesPerSecond, bytesPerSecond / (1L << 30));
        }
    }

    /** The copying loop, on the calling thread. */
    private static final class Loop {
        private final MemorySegment source;
        private final MemorySegment ring;
        private final int size;
        private final int destinations;
        /** Copies between two looks at the clock: about 64 KiB of copying. */
        private final int batch;
        private long copies;
        private int next;

        Loop(final MemorySegment source, final MemorySegment ring, final int size, final int destinations) {
            this.source = source;
            this.ring = ring;
            this.size = size;
            this.destinations = destinations;
            this.batch = Math.max(1, (64 << 10) / size);
        }

        void run(final long nanos, final Progress.Point progress, final long progressBaseMillis) {
            final long start = System.nanoTime();
            final long end = start + nanos;
            long nextReport = start;
            for (long now = start; now < end; now = System.nanoTime()) {
                for (int i = 0; i < batch; i++) {
                    source.set(NUMBER, 0, copies++);
                    MemorySegment.copy(source, 0, ring, (long) next * size, size);
                    next = next + 1 == destinations ? 0 : next + 1;
                }
                if (now >= nextReport) {
                    progress.at(progressBaseMillis + (now - start) / 1_000_000);
                    nextReport = now + 100_000_000;
                }
            }
        }

        /** Checks that the last copy landed: its number and its last byte. */
        void checkLast() {
            final int last = next == 0 ? destinations - 1 : next - 1;
            final long offset = (long) last * size;
            if (ring.get(NUMBER, offset) != copies - 1 || ring.get(ValueLayout.JAVA_BYTE, offset + size - 1)
                != source.get(ValueLayout.JAVA_BYTE, size - 1)) {
                throw new IllegalStateException("the last copy of " + size + " bytes did not land in its destination");
            }
        }
    }
}
