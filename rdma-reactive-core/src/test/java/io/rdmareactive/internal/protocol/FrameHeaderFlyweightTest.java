package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Bytes.assertUntouchedOutside;
import static io.rdmareactive.internal.protocol.Bytes.filled;
import static io.rdmareactive.internal.protocol.Bytes.le;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.CANCEL;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.DATA;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.FIRST;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.LAST;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.PAD;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.REQUEST_N;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.WHOLE;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.alignedLength;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.check;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

class FrameHeaderFlyweightTest {

    private static final int RING = 4096;

    @Property
    void headerRoundTripsAtAnyOffsetAndWritesNothingElse(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll @IntRange(min = 0) final int frameLength,
        @ForAll final short type,
        @ForAll @IntRange(min = 0, max = 255) final int flags,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + 8 + 24, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new FrameHeaderFlyweight().wrap(buffer, offset).header(frameLength, type, flags);

        final FrameHeaderFlyweight read = new FrameHeaderFlyweight().wrap(buffer, offset);
        assertThat(read.frameLength()).isEqualTo(frameLength);
        assertThat(read.type()).isEqualTo(type);
        assertThat(read.flags()).isEqualTo(flags);
        assertThat(read.reserved()).isZero();
        assertThat(read.buffer()).isSameAs(buffer);
        assertThat(read.offset()).isEqualTo(offset);
        // the layout, read independently: little-endian int, short, byte, byte
        assertThat(le(bytes).getInt(offset)).isEqualTo(frameLength);
        assertThat(le(bytes).getShort(offset + 4)).isEqualTo(type);
        assertThat(bytes[offset + 6]).isEqualTo((byte) flags);
        assertThat(bytes[offset + 7]).isZero();
        assertUntouchedOutside(bytes, offset, offset + 8, fill);
    }

    @Property
    void settersWriteOneFieldEach(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int frameLength,
        @ForAll final short type,
        @ForAll @IntRange(min = 0, max = 255) final int flags,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + 8 + 24, fill);
        final FrameHeaderFlyweight header = new FrameHeaderFlyweight().wrap(new UnsafeBuffer(bytes), offset);

        header.frameLength(frameLength);
        assertUntouchedOutside(bytes, offset, offset + 4, fill);
        header.type(type);
        assertUntouchedOutside(bytes, offset, offset + 6, fill);
        header.flags(flags);
        assertUntouchedOutside(bytes, offset, offset + 7, fill);

        assertThat(header.frameLength()).isEqualTo(frameLength);
        assertThat(header.type()).isEqualTo(type);
        assertThat(header.flags()).isEqualTo(flags);
        assertThat(header.reserved()).isEqualTo(fill);
    }

    @Property
    void alignedLengthIsTheNextMultipleOfEight(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE - 7) final int length) {
        final int aligned = alignedLength(length);
        assertThat(aligned % 8).isZero();
        assertThat(aligned).isGreaterThanOrEqualTo(length).isLessThanOrEqualTo(length + 7);
    }

    @Example
    void wellFormedFramesPass() {
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[RING]);
        header(ring, 0, 8, DATA, WHOLE);
        assertThat(check(ring, 0, 8, RING)).isEqualTo(FrameCheck.OK);
        header(ring, 0, 13, DATA, FIRST);
        assertThat(check(ring, 0, 16, RING)).isEqualTo(FrameCheck.OK);
        header(ring, 0, 100, DATA, 0);
        assertThat(check(ring, 0, 104, RING)).isEqualTo(FrameCheck.OK);
        header(ring, 0, 8, DATA, LAST);
        assertThat(check(ring, 0, 8, RING)).isEqualTo(FrameCheck.OK);
        header(ring, 64, 12, CANCEL, 0);
        assertThat(check(ring, 64, 1000, RING)).isEqualTo(FrameCheck.OK);
        header(ring, RING - 16, 16, DATA, WHOLE);
        assertThat(check(ring, RING - 16, 16, RING)).as("a frame that ends exactly at the ring's end")
            .isEqualTo(FrameCheck.OK);
        header(ring, RING - 64, 64, PAD, 0);
        assertThat(check(ring, RING - 64, 64, RING)).isEqualTo(FrameCheck.OK);
        assertThat(check(ring, RING - 64, 64 + 300, RING)).as("available runs on past the wrap")
            .isEqualTo(FrameCheck.OK);
        header(ring, 0, RING, PAD, 0);
        assertThat(check(ring, 0, RING, RING)).as("a PAD over the whole ring").isEqualTo(FrameCheck.OK);
    }

    @Example
    void eachRuleHasItsCode() {
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[RING]);
        header(ring, 8, 24, DATA, WHOLE);
        assertThat(check(ring, 4, 100, RING)).isEqualTo(FrameCheck.MISALIGNED);
        assertThat(check(ring, -8, 100, RING)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        assertThat(check(ring, RING, 100, RING)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        assertThat(check(ring, 8, -1, RING)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        assertThat(check(ring, 8, 100, RING - 4)).as("a ring capacity not a multiple of 8")
            .isEqualTo(FrameCheck.OUT_OF_RANGE);
        assertThat(check(ring, 8, 7, RING)).as("no whole header available").isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(check(ring, 8, 0, RING)).isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(check(ring, 8, 16, RING)).as("the frame runs past what is available")
            .isEqualTo(FrameCheck.TOO_LONG);

        header(ring, 8, 7, DATA, WHOLE);
        assertThat(check(ring, 8, 100, RING)).isEqualTo(FrameCheck.TOO_SHORT);
        header(ring, 8, -24, DATA, WHOLE);
        assertThat(check(ring, 8, 100, RING)).as("Agrona's claimed, uncommitted record").isEqualTo(FrameCheck.TOO_SHORT);
        header(ring, 8, 12, DATA, WHOLE);
        assertThat(check(ring, 8, 12, RING)).as("the frame's alignment padding runs past what is available")
            .isEqualTo(FrameCheck.TOO_LONG);
        header(ring, RING - 16, 24, DATA, WHOLE);
        assertThat(check(ring, RING - 16, 100, RING)).as("crosses the ring's end").isEqualTo(FrameCheck.TOO_LONG);
        header(ring, 8, Integer.MAX_VALUE, DATA, WHOLE);
        assertThat(check(ring, 8, Integer.MAX_VALUE, RING)).isEqualTo(FrameCheck.TOO_LONG);
        header(ring, 8, 24, DATA, WHOLE);
        assertThat(check(new UnsafeBuffer(ring, 0, 24), 8, 100, RING)).as("runs past the buffer's end")
            .isEqualTo(FrameCheck.TOO_LONG);

        header(ring, 8, 24, (short) (FrameHeaderFlyweight.LAST_TYPE + 1), 0);
        assertThat(check(ring, 8, 100, RING)).isEqualTo(FrameCheck.BAD_TYPE);
        header(ring, 8, 24, (short) -2, 0);
        assertThat(check(ring, 8, 100, RING)).isEqualTo(FrameCheck.BAD_TYPE);

        header(ring, 8, 24, REQUEST_N, FIRST);
        assertThat(check(ring, 8, 100, RING)).as("flags on a control frame").isEqualTo(FrameCheck.BAD_FLAGS);
        header(ring, 8, 24, DATA, WHOLE | 0x01);
        assertThat(check(ring, 8, 100, RING)).as("an unknown DATA flag").isEqualTo(FrameCheck.BAD_FLAGS);
        header(ring, 8, 24, PAD, LAST);
        assertThat(check(ring, 8, RING, RING)).as("flags on PAD").isEqualTo(FrameCheck.BAD_FLAGS);
        header(ring, 8, 24, DATA, WHOLE);
        ring.putByte(8 + FrameHeaderFlyweight.RESERVED_OFFSET, (byte) 1);
        assertThat(check(ring, 8, 100, RING)).as("reserved byte set").isEqualTo(FrameCheck.BAD_FLAGS);

        header(ring, RING - 64, 56, PAD, 0);
        assertThat(check(ring, RING - 64, 64, RING)).as("PAD short of the end").isEqualTo(FrameCheck.PAD_NOT_AT_END);
        header(ring, RING - 64, 72, PAD, 0);
        assertThat(check(ring, RING - 64, 200, RING)).as("PAD past the end").isEqualTo(FrameCheck.PAD_NOT_AT_END);
        header(ring, RING - 64, 64, PAD, 0);
        assertThat(check(ring, RING - 64, 56, RING)).as("PAD not all available").isEqualTo(FrameCheck.TOO_LONG);
    }

    @Example
    void agronasOwnPaddingRecordIsNotAPadFrame() {
        // an Agrona ring buffer pads its end with a record of type -1; mirrored verbatim, it reads as type -1 with
        // flags and reserved 0xFF: the sender must rewrite it as a PAD frame before posting it
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[RING]);
        ring.putInt(RING - 64, 64, FrameHeaderFlyweight.BYTE_ORDER);
        ring.putInt(RING - 64 + 4, -1, FrameHeaderFlyweight.BYTE_ORDER);
        assertThat(check(ring, RING - 64, 64, RING)).isEqualTo(FrameCheck.BAD_TYPE);
    }

    @Example
    void everyCodeHasItsOwnDescription() {
        final Set<String> descriptions = new HashSet<>();
        for (int code = FrameCheck.OK; code <= FrameCheck.LAST; code++) {
            assertThat(FrameHeaderFlyweight.describe(code)).isNotBlank().isEqualTo(FrameCheck.describe(code));
            descriptions.add(FrameCheck.describe(code));
        }
        assertThat(descriptions).hasSize(FrameCheck.LAST + 1);
        assertThat(FrameCheck.describe(-1)).contains("unknown");
        assertThat(FrameCheck.describe(FrameCheck.LAST + 1)).contains("unknown");
    }

    /**
     * Whatever the bytes and arguments, the check returns a code, throws nothing, and reads nothing outside
     * {@code [index, index + available)} of the ring: the ring is a {@link GuardedBuffer} over exactly that range
     * (clipped to the ring), so any read outside it throws and fails the property.
     */
    @Property(tries = 3000, edgeCases = EdgeCasesMode.NONE)
    void checkOfHostileBytesNeverThrowsNorReadsOutsideItsRange(@ForAll("hostileRings") final HostileRing hostile) {
        final GuardedBuffer ring = GuardedBuffer.exactly(hostile.bytes, hostile.index, hostile.available);

        final int code = check(ring, hostile.index, hostile.available, hostile.ringCapacity);

        Statistics.label("code").collect(FrameCheck.describe(code));
        Statistics.label("code").coverage(coverage -> {
            for (int expected = FrameCheck.OK; expected <= FrameCheck.PAD_NOT_AT_END; expected++) {
                coverage.check(FrameCheck.describe(expected)).count(count -> count > 0);
            }
            coverage.check(FrameCheck.describe(FrameCheck.OUT_OF_RANGE)).count(count -> count > 0);
        });
        assertThat(code).isIn(FrameCheck.OK, FrameCheck.TOO_SHORT, FrameCheck.TOO_LONG, FrameCheck.BAD_TYPE,
            FrameCheck.BAD_FLAGS, FrameCheck.MISALIGNED, FrameCheck.PAD_NOT_AT_END, FrameCheck.OUT_OF_RANGE);
        if (code == FrameCheck.OK) {
            final int frameLength = le(hostile.bytes).getInt(hostile.index);
            final short type = le(hostile.bytes).getShort(hostile.index + 4);
            assertThat(hostile.index % 8).isZero();
            assertThat(frameLength).isGreaterThanOrEqualTo(8);
            assertThat((long) hostile.index + alignedLength(frameLength))
                .isLessThanOrEqualTo((long) hostile.index + hostile.available)
                .isLessThanOrEqualTo(hostile.ringCapacity);
            assertThat(type).isBetween(PAD, FrameHeaderFlyweight.LAST_TYPE);
            if (type == PAD) {
                assertThat(hostile.index + frameLength).isEqualTo(hostile.ringCapacity);
            }
        }
    }

    /** A ring of random bytes (often with a plausible header at {@code index}), and random check arguments. */
    record HostileRing(byte[] bytes, int ringCapacity, int index, int available) {
    }

    @Provide
    Arbitrary<HostileRing> hostileRings() {
        return Arbitraries.integers().between(1, 64).map(units -> units * 8).flatMap(length -> {
            final Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofSize(length);
            final Arbitrary<Integer> capacity = Arbitraries.frequencyOf(
                weighted(16, Arbitraries.just(length)),
                weighted(1, Arbitraries.integers().between(-16, 2 * length)),
                weighted(1, Arbitraries.of(Integer.MIN_VALUE, 0, Integer.MAX_VALUE)));
            final Arbitrary<Integer> index = Arbitraries.frequencyOf(
                weighted(16, Arbitraries.integers().between(0, length / 8 - 1).map(i -> i * 8)),
                weighted(1, Arbitraries.integers().between(-16, length + 16)),
                weighted(1, Arbitraries.of(Integer.MIN_VALUE, Integer.MIN_VALUE + 8, Integer.MAX_VALUE - 7)));
            final Arbitrary<Integer> available = Arbitraries.frequencyOf(
                weighted(16, Arbitraries.integers().between(0, length + 16)),
                weighted(1, Arbitraries.integers().between(-16, -1)),
                weighted(1, Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE)));
            final Arbitrary<Integer> headerLength = Arbitraries.frequencyOf(
                weighted(8, Arbitraries.integers().between(-8, length + 16)),
                weighted(1, Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, 7, 8)),
                weighted(4, Arbitraries.of(TO_END, TO_END_LESS_8, TO_END_PLUS_8)));
            final Arbitrary<Short> type = Arbitraries.frequencyOf(
                weighted(3, Arbitraries.just(PAD)),
                weighted(6, Arbitraries.shorts().between(DATA, FrameHeaderFlyweight.LAST_TYPE)),
                weighted(1, Arbitraries.shorts()));
            final Arbitrary<Integer> flags = Arbitraries.frequencyOf(
                weighted(12, Arbitraries.just(0)),
                weighted(4, Arbitraries.of(FIRST, LAST, WHOLE)),
                weighted(1, Arbitraries.integers().between(0, 255)));
            final Arbitrary<Integer> reserved = Arbitraries.frequencyOf(
                weighted(9, Arbitraries.just(0)),
                weighted(1, Arbitraries.integers().between(1, 255)));
            final Arbitrary<Boolean> plausible = Arbitraries.of(true, true, true, false);
            return Combinators.combine(bytes, capacity, index, available, headerLength, type, flags, reserved)
                .as((b, c, i, a, l, t, f, r) -> new Object[] {b, c, i, a, l, t, f, r})
                .flatMap(parts -> plausible.map(p -> ring(parts, p)));
        });
    }

    // header lengths relative to the ring's end (out of the range of plain lengths drawn above)
    private static final int TO_END = -101;
    private static final int TO_END_LESS_8 = -102;
    private static final int TO_END_PLUS_8 = -103;

    private static HostileRing ring(final Object[] parts, final boolean plausible) {
        final byte[] bytes = (byte[]) parts[0];
        final int capacity = (Integer) parts[1];
        final int index = (Integer) parts[2];
        final int available = (Integer) parts[3];
        if (plausible && index >= 0 && index <= bytes.length - 8) {
            final int length = switch ((Integer) parts[4]) {
                case TO_END -> capacity - index;
                case TO_END_LESS_8 -> capacity - index - 8;
                case TO_END_PLUS_8 -> capacity - index + 8;
                default -> (Integer) parts[4];
            };
            le(bytes).putInt(index, length).putShort(index + 4, (Short) parts[5]);
            bytes[index + 6] = (byte) (int) (Integer) parts[6];
            bytes[index + 7] = (byte) (int) (Integer) parts[7];
        }
        return new HostileRing(bytes, capacity, index, available);
    }

    static <T> Tuple2<Integer, Arbitrary<? extends T>> weighted(final int frequency,
                                                                final Arbitrary<? extends T> arbitrary) {
        return Tuple.of(frequency, arbitrary);
    }

    private static void header(final UnsafeBuffer ring, final int index, final int frameLength, final short type,
                               final int flags) {
        new FrameHeaderFlyweight().wrap(ring, index).header(frameLength, type, flags);
    }

    @Example
    void theGuardCatchesReadsOnBothSides() {
        final GuardedBuffer guarded = GuardedBuffer.exactly(new byte[64], 16, 16);
        assertThat(guarded.getInt(16)).isZero();
        assertThat(guarded.getLong(24, FrameHeaderFlyweight.BYTE_ORDER)).isZero();
        assertThatThrownBy(() -> guarded.getInt(12))
            .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> guarded.getInt(29))
            .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> guarded.getByte(32))
            .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(DirectBuffer.SHOULD_BOUNDS_CHECK).as("Agrona's bounds checks are on").isTrue();
    }
}
