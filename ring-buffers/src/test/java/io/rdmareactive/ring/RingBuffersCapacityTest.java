package io.rdmareactive.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/** Properties of {@link RingBuffers#requiredLength(int)}, the one piece of arithmetic in {@link RingBuffers}. */
class RingBuffersCapacityTest {

    @Property
    void requiredLengthIsTheCapacityPlusAgronasTrailer(@ForAll @IntRange(min = 3, max = 30) final int shift) {
        final int capacity = 1 << shift;
        assertThat(RingBuffers.requiredLength(capacity)).isEqualTo(capacity + RingBufferDescriptor.TRAILER_LENGTH);
    }

    @Property
    void requiredLengthRejectsEveryOtherCapacitySayingWhatToUse(@ForAll final int capacity) {
        Assume.that(Integer.bitCount(capacity) != 1 || capacity < 8 || capacity > RingBuffers.MAX_CAPACITY);
        assertThatThrownBy(() -> RingBuffers.requiredLength(capacity))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("capacity " + capacity);
    }
}
