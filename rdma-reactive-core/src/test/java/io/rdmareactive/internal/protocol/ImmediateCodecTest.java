package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.ImmediateCodec.advance;
import static io.rdmareactive.internal.protocol.ImmediateCodec.encode;
import static io.rdmareactive.internal.protocol.ImmediateCodec.isValid;
import static io.rdmareactive.internal.protocol.ImmediateCodec.streamId;
import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class ImmediateCodecTest {

    @Example
    void constants() {
        assertThat(ImmediateCodec.MAX_STREAMS).isEqualTo(1024);
        assertThat(ImmediateCodec.MAX_ADVANCE).isEqualTo((1 << 25) - 8);
        assertThat(ImmediateCodec.MAX_RING_CAPACITY).isEqualTo(16 * 1024 * 1024)
            .isLessThanOrEqualTo(ImmediateCodec.MAX_ADVANCE);
    }

    @Property
    void roundTripsEveryValidPair(
        @ForAll @IntRange(min = 0, max = 1023) final int streamId,
        @ForAll @IntRange(min = 1, max = (1 << 22) - 1) final int units) {
        final int advance = units * 8;
        final int immediate = encode(streamId, advance);
        assertThat(streamId(immediate)).isEqualTo(streamId);
        assertThat(advance(immediate)).isEqualTo(advance);
        // the layout: stream id in the high 10 bits, advance / 8 in the low 22
        assertThat(immediate >>> 22).isEqualTo(streamId);
        assertThat(immediate & 0x3FFFFF).isEqualTo(units);
        assertThat(isValid(immediate, streamId + 1, Math.max(advance, 4096))).isTrue();
    }

    @Example
    void roundTripsEveryStreamWithTheEdgeAdvances() {
        final int[] advances = {8, 16, 4096, 4096 + 8, ImmediateCodec.MAX_RING_CAPACITY, ImmediateCodec.MAX_ADVANCE};
        for (int streamId = 0; streamId < 1024; streamId++) {
            for (final int advance : advances) {
                final int immediate = encode(streamId, advance);
                assertThat(streamId(immediate)).isEqualTo(streamId);
                assertThat(advance(immediate)).isEqualTo(advance);
                assertThat(isValid(immediate, 1024, ImmediateCodec.MAX_RING_CAPACITY))
                    .isEqualTo(advance <= ImmediateCodec.MAX_RING_CAPACITY);
            }
        }
    }

    /** isValid against a plain reading of the layout, for every int a peer could send. */
    @Property
    void acceptsExactlyAStreamBelowTheLimitAndAnAdvanceWithinTheRing(
        @ForAll final int immediate,
        @ForAll @IntRange(min = 1, max = 1024) final int maxStreams,
        @ForAll @IntRange(min = 12, max = 24) final int ringCapacityLog2) {
        final int ringCapacity = 1 << ringCapacityLog2;
        final long stream = (immediate & 0xFFFFFFFFL) >> 22;
        final long bytes = (immediate & 0x3FFFFFL) * 8;

        final boolean valid = isValid(immediate, maxStreams, ringCapacity);

        assertThat(valid).isEqualTo(stream < maxStreams && bytes > 0 && bytes <= ringCapacity);
        assertThat(streamId(immediate)).isEqualTo((int) stream).isBetween(0, 1023);
        assertThat(advance(immediate)).isEqualTo((int) bytes).isBetween(0, ImmediateCodec.MAX_ADVANCE);
        assertThat(advance(immediate) % 8).isZero();
        if (valid) {
            assertThat(encode(streamId(immediate), advance(immediate))).isEqualTo(immediate);
        }
    }

    @Example
    void rejectsAZeroAdvanceTooLargeAnAdvanceAndAStreamPastTheLimit() {
        assertThat(isValid(0, 1024, 4096)).as("advance 0").isFalse();
        assertThat(isValid(5 << 22, 1024, 4096)).as("stream 5, advance 0").isFalse();
        assertThat(isValid(encode(0, 4096 + 8), 1024, 4096)).as("more than the ring").isFalse();
        assertThat(isValid(encode(0, 4096), 1024, 4096)).as("exactly the ring").isTrue();
        assertThat(isValid(encode(16, 8), 16, 4096)).as("stream = maxStreams").isFalse();
        assertThat(isValid(encode(15, 8), 16, 4096)).isTrue();
        assertThat(isValid(-1, 1024, ImmediateCodec.MAX_RING_CAPACITY)).as("all ones").isFalse();
    }
}
