package io.rdmareactive.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;

class RingPositionsTest {

    private static final long MAX_POSITION = 1L << 62;

    @Provide
    Arbitrary<Integer> capacities() {
        return Arbitraries.integers().between(3, 30).map(shift -> 1 << shift);
    }

    @Provide
    Arbitrary<Integer> smallCapacities() {
        return Arbitraries.integers().between(3, 12).map(shift -> 1 << shift);
    }

    @Provide
    Arbitrary<Long> positions() {
        return Arbitraries.longs().between(0, MAX_POSITION);
    }

    @Provide
    Arbitrary<Long> alignedPositions() {
        return positions().map(p -> p & -RingPositions.ALIGNMENT);
    }

    // ---- index and wrap ----

    @Property
    void indexIsInsideTheRingAndIsThePositionModuloCapacity(
        @ForAll("positions") final long position, @ForAll("capacities") final int capacity) {
        final int index = RingPositions.index(position, capacity);
        assertThat(index).isBetween(0, capacity - 1);
        assertThat((long) index).isEqualTo(Math.floorMod(position, (long) capacity));
    }

    @Property
    void indexRepeatsEveryCapacity(
        @ForAll("positions") final long position, @ForAll("capacities") final int capacity,
        @ForAll @IntRange(min = 0, max = 1000) final int laps) {
        final long later = position + (long) laps * capacity;
        assertThat(RingPositions.index(later, capacity)).isEqualTo(RingPositions.index(position, capacity));
    }

    @Property
    void bytesUntilWrapReachesTheRingsEndExactly(
        @ForAll("positions") final long position, @ForAll("capacities") final int capacity) {
        final int untilWrap = RingPositions.bytesUntilWrap(position, capacity);
        assertThat(untilWrap).isBetween(1, capacity);
        assertThat(RingPositions.index(position, capacity) + untilWrap).isEqualTo(capacity);
        assertThat(RingPositions.index(position + untilWrap, capacity)).isZero();
    }

    // ---- split ----

    @Property
    void splitCutsEveryLegalRangeIntoAtMostTwoContiguousPiecesInsideTheRing(
        @ForAll("positions") final long from, @ForAll("capacities") final int capacity,
        @ForAll @IntRange(min = 0, max = 1 << 30) final int rawLength) {
        final int length = rawLength % (capacity + 1);
        final long to = from + length;
        final RingSplit split = garbage();

        assertThat(RingPositions.split(from, to, capacity, split)).isTrue();

        assertThat(split.count()).isBetween(0, 2);
        assertThat(split.count() == 0).isEqualTo(length == 0);
        assertThat(split.totalLength()).isEqualTo(length);
        if (split.count() >= 1) {
            assertThat(split.firstOffset()).isEqualTo(RingPositions.index(from, capacity));
            assertThat(split.firstLength()).isPositive();
            assertThat((long) split.firstOffset() + split.firstLength()).isLessThanOrEqualTo(capacity);
        }
        if (split.count() == 1) {
            assertThat(split.secondOffset()).isZero();
            assertThat(split.secondLength()).isZero();
        }
        if (split.count() == 2) {
            // the first piece runs to the ring's end, the second starts at its beginning: contiguous in positions
            assertThat(split.firstOffset() + split.firstLength()).isEqualTo(capacity);
            assertThat(split.secondOffset()).isZero();
            assertThat(split.secondLength()).isPositive();
            // and the pieces do not overlap in the ring
            assertThat(split.secondOffset() + split.secondLength()).isLessThanOrEqualTo(split.firstOffset());
        }
    }

    @Property
    void everyByteOfTheRangeLandsAtItsRingIndex(
        @ForAll("positions") final long from, @ForAll("smallCapacities") final int capacity,
        @ForAll @IntRange(min = 0, max = 1 << 12) final int rawLength) {
        final int length = rawLength % (capacity + 1);
        final RingSplit split = new RingSplit();
        RingPositions.split(from, from + length, capacity, split);
        for (int i = 0; i < length; i++) {
            final int offset = i < split.firstLength()
                ? split.firstOffset() + i
                : split.secondOffset() + (i - split.firstLength());
            assertThat(offset).isEqualTo(RingPositions.index(from + i, capacity));
        }
    }

    @Property
    void splitRejectsBackwardAndOverlongRangesAndLeavesNoPieces(
        @ForAll("positions") final long from, @ForAll("capacities") final int capacity,
        @ForAll @LongRange(min = 1, max = 1L << 40) final long excess, @ForAll final boolean backwards) {
        final long to = backwards ? from - excess : from + capacity + excess;
        final RingSplit split = garbage();
        assertThat(RingPositions.split(from, to, capacity, split)).isFalse();
        assertThat(split.count()).isZero();
        assertThat(split.totalLength()).isZero();
    }

    @Example
    void splitOfAnExtremeRangeDoesNotOverflow() {
        final RingSplit split = garbage();
        assertThat(RingPositions.split(Long.MIN_VALUE, Long.MAX_VALUE, 1024, split)).isFalse();
        assertThat(split.count()).isZero();
    }

    private static RingSplit garbage() {
        final RingSplit split = new RingSplit();
        split.set(2, 17, 23, 5, 9);
        return split;
    }

    // ---- free space ----

    @Property
    void freeSpaceIsNeverNegativeNorAboveCapacity(
        @ForAll final long producer, @ForAll final long credited, @ForAll("capacities") final int capacity) {
        assertThat(RingPositions.freeSpace(producer, credited, capacity)).isBetween(0, capacity);
    }

    @Property
    void freeSpaceAndUsedSpaceMakeTheCapacity(
        @ForAll("positions") final long credited, @ForAll("capacities") final int capacity,
        @ForAll @IntRange(min = 0, max = 1 << 30) final int rawUsed) {
        final int used = rawUsed % (capacity + 1);
        assertThat(RingPositions.freeSpace(credited + used, credited, capacity) + used).isEqualTo(capacity);
    }

    @Property
    void inconsistentPositionsGiveNoRoom(
        @ForAll("positions") final long credited, @ForAll("capacities") final int capacity,
        @ForAll @LongRange(min = 1, max = 1L << 40) final long excess, @ForAll final boolean producerBehind) {
        final long producer = producerBehind ? credited - excess : credited + capacity + excess;
        assertThat(RingPositions.freeSpace(producer, credited, capacity)).isZero();
    }

    // ---- checking an untrusted advance ----

    @Property
    void checkAdvanceFollowsItsSpecificationForAnyInput(
        @ForAll final long current, @ForAll final long proposed, @ForAll final long limit) {
        final PositionCheck expected = proposed < current ? PositionCheck.BACKWARDS
            : proposed > limit ? PositionCheck.BEYOND_LIMIT
            : Math.floorMod(proposed, RecordDescriptor.ALIGNMENT) != 0 ? PositionCheck.MISALIGNED
            : PositionCheck.ACCEPTED;
        assertThat(RingPositions.checkAdvance(current, proposed, limit)).isEqualTo(expected);
    }

    @Property
    void everyLegalAdvanceIsAccepted(
        @ForAll("alignedPositions") final long current, @ForAll("capacities") final int capacity,
        @ForAll @IntRange(min = 0, max = 1 << 30) final int rawAdvance) {
        final long limit = current + capacity;
        final long proposed = current + ((rawAdvance % (capacity + 1)) & -RingPositions.ALIGNMENT);
        assertThat(RingPositions.checkAdvance(current, proposed, limit)).isEqualTo(PositionCheck.ACCEPTED);
        assertThat(RingPositions.checkAdvance(current, proposed, limit).isAccepted()).isTrue();
    }

    @Property
    void goingBackwardsIsRejected(
        @ForAll("alignedPositions") final long current, @ForAll @LongRange(min = 1, max = 1L << 40) final long back,
        @ForAll final long limit) {
        assertThat(RingPositions.checkAdvance(current, current - back, limit)).isEqualTo(PositionCheck.BACKWARDS);
    }

    @Property
    void passingTheLimitIsRejected(
        @ForAll("alignedPositions") final long current, @ForAll @IntRange(min = 0, max = 1 << 30) final int window,
        @ForAll @LongRange(min = 1, max = 1L << 40) final long beyond) {
        final long limit = current + window;
        assertThat(RingPositions.checkAdvance(current, limit + beyond, limit)).isEqualTo(PositionCheck.BEYOND_LIMIT);
    }

    @Property
    void aPositionOffARecordBoundaryIsRejected(
        @ForAll("alignedPositions") final long current, @ForAll @IntRange(min = 0, max = 1 << 20) final int advance,
        @ForAll @IntRange(min = 1, max = 7) final int off) {
        final long proposed = current + ((long) advance * RingPositions.ALIGNMENT) + off;
        assertThat(RingPositions.checkAdvance(current, proposed, Long.MAX_VALUE)).isEqualTo(PositionCheck.MISALIGNED);
    }

    @Example
    void alignmentIsAgronasRecordAlignment() {
        assertThat(RingPositions.ALIGNMENT).isEqualTo(RecordDescriptor.ALIGNMENT).isEqualTo(8);
    }

    // ---- credit batching ----

    @Property
    void creditThresholdIsAtLeastOneRecordAndAtMostHalfTheRing(
        @ForAll("capacities") final int capacity, @ForAll @IntRange(min = 2, max = Integer.MAX_VALUE) final int divisor) {
        final int threshold = RingPositions.creditThreshold(capacity, divisor);
        assertThat(threshold).isBetween(RingPositions.ALIGNMENT, Math.max(RingPositions.ALIGNMENT, capacity / 2));
    }

    @Property
    void heldBackCreditLeavesRoomForAgronasLargestRecordEvenAtTheWrap(
        @ForAll("capacities") final int capacity, @ForAll @IntRange(min = 2, max = 1 << 20) final int divisor) {
        Assume.that(capacity >= 64);
        final int threshold = RingPositions.creditThreshold(capacity, divisor);
        final int maxHeldBack = threshold - 1;
        // Agrona's ManyToOneRingBuffer and OneToOneRingBuffer: maxMsgLength = capacity / 8, plus the record header;
        // a claim at the ring's end also pads the rest of the ring, less than one record
        final int largestRecord = (capacity >> 3) + RecordDescriptor.HEADER_LENGTH;
        assertThat(capacity - maxHeldBack).isGreaterThanOrEqualTo(2 * largestRecord);
    }

    @Property
    void creditThresholdRejectsDivisorsBelowTwo(
        @ForAll("capacities") final int capacity, @ForAll @IntRange(min = Integer.MIN_VALUE, max = 1) final int divisor) {
        assertThatThrownBy(() -> RingPositions.creditThreshold(capacity, divisor))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("credit divisor " + divisor)
            .hasMessageContaining("use 2 or more");
    }

    @Property
    void creditThresholdRejectsCapacitiesThatAreNotPowersOfTwo(@ForAll final int capacity) {
        Assume.that(Integer.bitCount(capacity) != 1 || capacity < RingPositions.ALIGNMENT || capacity > RingBuffers.MAX_CAPACITY);
        assertThatThrownBy(() -> RingPositions.creditThreshold(capacity, 4))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("capacity " + capacity);
    }

    @Property
    void shouldReturnCreditExactlyWhenAThresholdWasConsumed(
        @ForAll("alignedPositions") final long lastReturned, @ForAll @IntRange(min = 0, max = 1 << 30) final int consumedSince,
        @ForAll("capacities") final int capacity) {
        final int threshold = RingPositions.creditThreshold(capacity, 4);
        assertThat(RingPositions.shouldReturnCredit(lastReturned + consumedSince, lastReturned, threshold))
            .isEqualTo(consumedSince >= threshold);
    }

    @Property
    void batchingNeverHoldsBackAThresholdAndNeverReturnsCreditPerRecord(
        @ForAll("smallCapacities") final int capacity, @ForAll @IntRange(min = 2, max = 64) final int divisor,
        @ForAll @Size(max = 200) final List<@IntRange(min = 0, max = 1 << 12) Integer> consumedSteps) {
        final int threshold = RingPositions.creditThreshold(capacity, divisor);
        long consumed = 0;
        long lastReturned = 0;
        int returns = 0;
        for (final int step : consumedSteps) {
            consumed += (step % (capacity + 1)) & -RingPositions.ALIGNMENT;
            if (RingPositions.shouldReturnCredit(consumed, lastReturned, threshold)) {
                lastReturned = consumed;
                returns++;
            }
            assertThat(consumed - lastReturned).isLessThan(threshold);
        }
        // every return hands back at least a threshold's worth: no credit message per record
        assertThat((long) returns * threshold).isLessThanOrEqualTo(consumed);
    }
}
