package io.rdmareactive.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.ring.OffHeapMemory.FileMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RingBuffersTest {

    private static final int PAGE = PageSize.get();
    private static final int MSG_TYPE = 7;

    /** The two kinds of ring, so that every test runs over both. */
    enum Kind {
        MANY_TO_ONE(ManyToOneRingBuffer.MIN_CAPACITY) {
            @Override
            RingBuffer lay(final OffHeapMemory memory, final long offset, final int capacity) {
                return RingBuffers.manyToOne(memory, offset, capacity);
            }
        },
        ONE_TO_ONE(OneToOneRingBuffer.MIN_CAPACITY) {
            @Override
            RingBuffer lay(final OffHeapMemory memory, final long offset, final int capacity) {
                return RingBuffers.oneToOne(memory, offset, capacity);
            }
        };

        final int minCapacity;

        Kind(final int minCapacity) {
            this.minCapacity = minCapacity;
        }

        abstract RingBuffer lay(OffHeapMemory memory, long offset, int capacity);
    }

    @TempDir
    Path dir;

    // ---- required length (its properties are in RingBuffersCapacityTest) ----

    @Test
    void capacityMessagesSuggestTheNextPowerOfTwo() {
        assertThatThrownBy(() -> RingBuffers.requiredLength(1000))
            .hasMessage("ring capacity 1000 is not a power of two up to 1073741824: use 1024");
        assertThatThrownBy(() -> RingBuffers.requiredLength(Integer.MIN_VALUE))
            .hasMessage("ring capacity -2147483648 is not a power of two up to 1073741824");
    }

    @Test
    void aRingOfMaxCapacityFitsAnAgronaBuffer() {
        assertThat(RingBuffers.requiredLength(RingBuffers.MAX_CAPACITY)).isPositive();
    }

    // ---- laying rings over memory ----

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRingOverAllocatedMemoryCarriesMessages(final Kind kind) {
        try (OffHeapMemory memory = OffHeapMemory.allocate(PAGE)) {
            final RingBuffer ring = kind.lay(memory, 0, 1024);
            assertThat(ring.capacity()).isEqualTo(1024);
            assertThat(ring.buffer().addressOffset()).isEqualTo(memory.address());
            assertThat(ring.buffer().capacity()).isEqualTo(RingBuffers.requiredLength(1024));
            assertThat(ring.write(MSG_TYPE, new UnsafeBuffer("hello".getBytes()), 0, 5)).isTrue();
            assertThat(drain(ring)).containsExactly("hello");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void ringsAtDifferentOffsetsOfOneMemoryAreIndependent(final Kind kind) {
        final int capacity = 1024;
        final long second = PageSize.roundUp(RingBuffers.requiredLength(capacity));
        try (OffHeapMemory memory = OffHeapMemory.allocate(2 * second)) {
            final RingBuffer a = kind.lay(memory, 0, capacity);
            final RingBuffer b = kind.lay(memory, second, capacity);
            a.write(MSG_TYPE, new UnsafeBuffer("a".getBytes()), 0, 1);
            b.write(MSG_TYPE, new UnsafeBuffer("b".getBytes()), 0, 1);
            assertThat(drain(a)).containsExactly("a");
            assertThat(drain(b)).containsExactly("b");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRingMayEndExactlyAtTheEndOfTheMemory(final Kind kind) {
        try (OffHeapMemory memory = OffHeapMemory.allocate(2L * PAGE)) {
            final int capacity = PAGE / 2;
            final long offset = 2L * PAGE - RingBuffers.requiredLength(capacity);
            assertThat(kind.lay(memory, offset, capacity).capacity()).isEqualTo(capacity);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void capacitiesBelowAgronasMinimumAreRejectedNamingIt(final Kind kind) {
        try (OffHeapMemory memory = OffHeapMemory.allocate(PAGE)) {
            assertThatThrownBy(() -> kind.lay(memory, 0, kind.minCapacity / 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity " + kind.minCapacity / 2 + " is below Agrona's minimum of " + kind.minCapacity);
            assertThat(kind.lay(memory, 0, kind.minCapacity).capacity()).isEqualTo(kind.minCapacity);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void capacitiesThatAreNotPowersOfTwoAreRejected(final Kind kind) {
        try (OffHeapMemory memory = OffHeapMemory.allocate(PAGE)) {
            assertThatThrownBy(() -> kind.lay(memory, 0, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity 1000 is not a power of two")
                .hasMessageContaining("use 1024");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void misalignedOffsetsAreRejectedSayingWhatToUse(final Kind kind) {
        try (OffHeapMemory memory = OffHeapMemory.allocate(2L * PAGE)) {
            assertThatThrownBy(() -> kind.lay(memory, 12, 1024))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset 12 is not a non-negative multiple of 8")
                .hasMessageContaining("use 16");
            assertThatThrownBy(() -> kind.lay(memory, -8, 1024))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset -8");
            assertThat(kind.lay(memory, 8, 1024).capacity()).isEqualTo(1024);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void regionsPastTheEndOfTheMemoryAreRejectedSayingHowMuchIsNeeded(final Kind kind) {
        try (OffHeapMemory memory = OffHeapMemory.allocate(PAGE)) {
            final int capacity = PAGE;
            assertThatThrownBy(() -> kind.lay(memory, 0, capacity))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs " + RingBuffers.requiredLength(capacity) + " bytes")
                .hasMessageContaining("holds " + PAGE + " bytes")
                .hasMessageContaining("at least " + 2 * PAGE + " bytes of memory");
            assertThatThrownBy(() -> kind.lay(memory, Long.MAX_VALUE & -8L, 8 * kind.minCapacity))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds " + PAGE + " bytes");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void freedMemoryIsRefused(final Kind kind) {
        final OffHeapMemory memory = OffHeapMemory.allocate(PAGE);
        memory.close();
        assertThatThrownBy(() -> kind.lay(memory, 0, 1024))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is freed");
    }

    // ---- two mappings of one file: two processes sharing one ring ----

    @ParameterizedTest
    @EnumSource(Kind.class)
    void twoMappingsOfOneFileShareOneRing(final Kind kind) {
        final Path file = dir.resolve("ring");
        final int capacity = 4096;
        final long offset = PAGE; // not at the file's start, to show both sides agree on the region
        final long length = PageSize.roundUp(offset + RingBuffers.requiredLength(capacity));
        try (OffHeapMemory producerMemory = OffHeapMemory.mapFile(file, length, FileMode.CREATE_NEW);
             OffHeapMemory consumerMemory = OffHeapMemory.mapFile(file, length, FileMode.OPEN_EXISTING)) {
            assertThat(consumerMemory.address()).isNotEqualTo(producerMemory.address());
            final RingBuffer producer = kind.lay(producerMemory, offset, capacity);
            final RingBuffer consumer = kind.lay(consumerMemory, offset, capacity);

            // committed claim: visible
            final int first = producer.tryClaim(MSG_TYPE, 5);
            assertThat(first).isPositive();
            producer.buffer().putStringWithoutLengthAscii(first, "first");
            producer.commit(first);

            // aborted claim: skipped by the consumer
            final int aborted = producer.tryClaim(MSG_TYPE, 7);
            producer.buffer().putStringWithoutLengthAscii(aborted, "aborted");
            producer.abort(aborted);

            // a claim not yet committed holds back everything after it
            final int pending = producer.tryClaim(MSG_TYPE, 7);
            producer.buffer().putStringWithoutLengthAscii(pending, "pending");
            assertThat(producer.write(MSG_TYPE, new UnsafeBuffer("after".getBytes()), 0, 5)).isTrue();

            assertThat(drain(consumer)).containsExactly("first");
            assertThat(producer.consumerPosition()).as("the producer sees the consumer's head").isEqualTo(consumer.consumerPosition());

            producer.commit(pending);
            assertThat(drain(consumer)).containsExactly("pending", "after");
            assertThat(drain(consumer)).isEmpty();
            assertThat(consumer.producerPosition()).isEqualTo(producer.producerPosition());
            assertThat(producer.consumerPosition()).isEqualTo(producer.producerPosition());
        }
        assertThat(file).doesNotExist();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRingSurvivesItsCreatorsMappingWhileAnotherMappingUsesIt(final Kind kind) {
        final Path file = dir.resolve("ring");
        final long length = PageSize.roundUp(RingBuffers.requiredLength(1024));
        final OffHeapMemory creator = OffHeapMemory.mapFile(file, length, FileMode.CREATE_NEW);
        kind.lay(creator, 0, 1024).write(MSG_TYPE, new UnsafeBuffer("kept".getBytes()), 0, 4);
        try (OffHeapMemory opener = OffHeapMemory.mapFile(file, length, FileMode.OPEN_EXISTING)) {
            final OffHeapMemory.Lease lease = creator.acquire();
            creator.close();
            assertThat(drain(kind.lay(opener, 0, 1024))).containsExactly("kept");
            lease.close();
        }
    }

    private static List<String> drain(final RingBuffer ring) {
        final List<String> messages = new ArrayList<>();
        ring.read((type, buffer, index, length) -> {
            assertThat(type).isEqualTo(MSG_TYPE);
            messages.add(buffer.getStringWithoutLengthAscii(index, length));
        });
        return messages;
    }
}
