package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The rma workload's region layout: every operation's offset is aligned and inside its area, consecutive operations
 * reach different offsets, a written word differs from the server's at every position, and the pipelined depth
 * stays within its bounds.
 */
class RegionLayoutTest {

    @Test
    void offsetsAreAlignedInsideTheAreaAndMoveFromOneOperationToTheNext() {
        final RegionLayout layout = RegionLayout.forLargest(1 << 20);
        for (final int size : new int[] {8, 32, 4096, 65536, 1 << 20}) {
            long previous = -1;
            for (long index = 0; index < 20_000; index++) {
                final long offset = layout.offset(index, size);
                assertThat(offset % Long.BYTES).isZero();
                assertThat(offset).isBetween(0L, layout.span() - size);
                assertThat(offset).as("operation %d of %d bytes", index, size).isNotEqualTo(previous);
                previous = offset;
            }
        }
        assertThat(layout.counter() % Long.BYTES).isZero();
        assertThat(layout.length()).isGreaterThanOrEqualTo(layout.counter() + Long.BYTES);
    }

    @Test
    void aWrittenWordDiffersFromTheServersEverywhere() {
        for (long position = 0; position < 1 << 20; position += Long.BYTES) {
            assertThat(RegionLayout.writtenWord(position)).isNotEqualTo(RegionLayout.readWord(position));
            assertThat(RegionLayout.readWord(position)).isNotEqualTo(RegionLayout.readWord(position + Long.BYTES));
        }
    }

    @Test
    void thePipelinedDepthIsBoundedByTheOptionTheConnectionAndTheTargetBytes() {
        assertThat(RmaWorkload.depth(32, 64, 4096)).isEqualTo(64);
        assertThat(RmaWorkload.depth(32, 8192, 4096)).isEqualTo(4096);
        assertThat(RmaWorkload.depth(1 << 20, 1024, 4096)).isEqualTo(RmaWorkload.TARGET_BYTES / (1 << 20));
        assertThat(RmaWorkload.depth(16 << 20, 64, 4096)).isEqualTo(4);
    }
}
