package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;

/** Properties of the arithmetic the shared-memory provider adds: keys, queue sizes, completion rings, sequences. */
class ShmArithmeticTest {

    @Property
    void keysCarryIndexAndGenerationAndTellLocalFromRemote(
        @ForAll @IntRange(min = 0, max = RegionTable.ENTRIES - 1) final int index,
        @ForAll @IntRange(min = 0, max = RegionTable.GENERATION_MASK) final int generation) {
        final int lkey = RegionTable.localKey(index, generation);
        final int rkey = RegionTable.remoteKey(index, generation);
        assertThat(RegionTable.indexOf(lkey)).isEqualTo(index);
        assertThat(RegionTable.indexOf(rkey)).isEqualTo(index);
        assertThat(RegionTable.generationOf(lkey)).isEqualTo(generation);
        assertThat(RegionTable.generationOf(rkey)).isEqualTo(generation);
        assertThat(RegionTable.isRemoteKey(lkey)).isFalse();
        assertThat(RegionTable.isRemoteKey(rkey)).isTrue();
        assertThat(lkey).isNotEqualTo(rkey);
    }

    @Property
    void keysOfDifferentGenerationsOfOneEntryNeverMatch(
        @ForAll @IntRange(min = 0, max = RegionTable.ENTRIES - 1) final int index,
        @ForAll @IntRange(min = 0, max = RegionTable.GENERATION_MASK) final int a,
        @ForAll @IntRange(min = 0, max = RegionTable.GENERATION_MASK) final int b) {
        assertThat(RegionTable.remoteKey(index, a) == RegionTable.remoteKey(index, b)).isEqualTo(a == b);
    }

    @Property
    void receiveDepthRoundsUpToThePowerOfTwoThatHoldsIt(@ForAll @IntRange(min = 1, max = 1 << 20) final int depth) {
        final int rounded = QueuePairFile.roundDepth(depth);
        assertThat(Integer.bitCount(rounded)).isEqualTo(1);
        assertThat(rounded).isGreaterThanOrEqualTo(depth).isLessThan(2 * depth);
    }

    @Property(tries = 200)
    void completionRingHoldsItsCapacityWhateverTheWrapPosition(
        @ForAll @IntRange(min = 1, max = 3000) final int capacity,
        @ForAll @Size(min = 1, max = 20) final List<@IntRange(min = 0, max = 3000) Integer> consumed) {
        final int length = (int) CompletionRing.fileLength(capacity);
        final CompletionRing ring = CompletionRing.create(new UnsafeBuffer(ByteBuffer.allocateDirect(length)),
            capacity);
        int outstanding = 0;
        for (final int batch : consumed) {
            // fill up to the capacity, then consume some: padding at the wrap must never cost a completion
            while (outstanding < capacity) {
                assertThat(ring.offer(outstanding, 0, 0, 0, 0, 1, 0, 0)).as("completion %d of %d", outstanding + 1,
                    capacity).isTrue();
                outstanding++;
            }
            outstanding -= ring.read((type, buffer, index, len) -> { }, Math.min(batch, outstanding));
        }
        assertThat(ring.isOverrun()).isFalse();
    }

    @Property
    void sendSequencesRetireAcrossTheWrapOfTheirLow32Bits(
        @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 2) final long retired,
        @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) final int ahead) {
        final long completedSequence = retired + ahead;
        assertThat(ShmQueuePair.retiredAfter(retired, (int) completedSequence)).isEqualTo(completedSequence);
    }

    @Property
    void olderCompletionsNeverMoveRetirementBackwards(
        @ForAll @LongRange(min = 1L << 31, max = Long.MAX_VALUE / 2) final long retired,
        @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE - 1) final int behind) {
        assertThat(ShmQueuePair.retiredAfter(retired, (int) (retired - behind))).isEqualTo(retired);
    }
}
