package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Bytes.assertUntouchedOutside;
import static io.rdmareactive.internal.protocol.Bytes.filled;
import static io.rdmareactive.internal.protocol.Bytes.le;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweightTest.weighted;
import static io.rdmareactive.internal.protocol.HandshakeFlyweight.requiredRegionLength;
import static io.rdmareactive.internal.protocol.HandshakeFlyweight.validate;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import org.agrona.concurrent.UnsafeBuffer;

class HandshakeFlyweightTest {

    @Example
    void fitsTheConnectRequestsPrivateData() {
        assertThat(HandshakeFlyweight.LENGTH).isEqualTo(40)
            .isLessThanOrEqualTo(HandshakeFlyweight.MAX_PRIVATE_DATA_LENGTH);
        final byte[] magic = new byte[4];
        le(magic).putInt(0, HandshakeFlyweight.MAGIC);
        assertThat(new String(magic, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("RRP1");
    }

    @Property
    void roundTripsAtAnyOffsetAndWritesNothingElse(
        @ForAll @IntRange(min = 0, max = 64) final int offset,
        @ForAll @IntRange(min = 2, max = 1024) final int maxStreams,
        @ForAll @IntRange(min = 12, max = 24) final int ringCapacityLog2,
        @ForAll @IntRange(min = 1024, max = 1 << 30) final int maxMessageLength,
        @ForAll final int rkey,
        @ForAll final long address,
        @ForAll final byte fill) {
        final int ringCapacity = 1 << ringCapacityLog2;
        final long regionLength = requiredRegionLength(maxStreams, ringCapacity);
        final byte[] bytes = filled(offset + 40 + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new HandshakeFlyweight().wrap(buffer, offset)
            .write(maxStreams, ringCapacity, maxMessageLength, rkey, address, regionLength);

        final HandshakeFlyweight read = new HandshakeFlyweight().wrap(buffer, offset);
        assertThat(read.magic()).isEqualTo(HandshakeFlyweight.MAGIC);
        assertThat(read.version()).isEqualTo(HandshakeFlyweight.VERSION);
        assertThat(read.flags()).isZero();
        assertThat(read.reserved()).isZero();
        assertThat(read.maxStreams()).isEqualTo(maxStreams);
        assertThat(read.ringCapacity()).isEqualTo(ringCapacity);
        assertThat(read.maxMessageLength()).isEqualTo(maxMessageLength);
        assertThat(read.receiveRegionRkey()).isEqualTo(rkey);
        assertThat(read.receiveRegionAddress()).isEqualTo(address);
        assertThat(read.receiveRegionLength()).isEqualTo(regionLength);
        final ByteBuffer le = le(bytes);
        assertThat(le.getInt(offset)).isEqualTo(0x31505252);
        assertThat(le.getShort(offset + 4)).isEqualTo((short) HandshakeFlyweight.VERSION);
        assertThat(le.getShort(offset + 6)).isZero();
        assertThat(le.getShort(offset + 8)).isEqualTo((short) maxStreams);
        assertThat(le.getShort(offset + 10)).isZero();
        assertThat(le.getInt(offset + 12)).isEqualTo(ringCapacity);
        assertThat(le.getInt(offset + 16)).isEqualTo(maxMessageLength);
        assertThat(le.getInt(offset + 20)).isEqualTo(rkey);
        assertThat(le.getLong(offset + 24)).isEqualTo(address);
        assertThat(le.getLong(offset + 32)).isEqualTo(regionLength);
        assertUntouchedOutside(bytes, offset, offset + 40, fill);
        assertThat(validate(buffer, offset, 40)).isNull();
        assertThat(validate(buffer, offset, 56)).as("padded private data").isNull();
    }

    @Example
    void namesTheProblemInWords() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[56]);
        final HandshakeFlyweight handshake = new HandshakeFlyweight().wrap(buffer, 0);
        handshake.write(2, 4096, 1 << 20, 7, 0x7f00_0000_0000L, requiredRegionLength(2, 4096));
        assertThat(validate(buffer, 0, 56)).isNull();

        assertThat(validate(buffer, 0, 12)).isEqualTo("private data of 12 bytes is shorter than the 40-byte handshake");
        buffer.putShort(HandshakeFlyweight.VERSION_OFFSET, (short) (HandshakeFlyweight.VERSION + 1),
            HandshakeFlyweight.BYTE_ORDER);
        assertThat(validate(buffer, 0, 56)).isEqualTo("protocol version " + (HandshakeFlyweight.VERSION + 1)
            + " is not supported (this side speaks " + HandshakeFlyweight.VERSION + ")");
        handshake.write(2, 5000, 1 << 20, 7, 0, 1L << 40);
        assertThat(validate(buffer, 0, 56))
            .isEqualTo("ring capacity 5000 is not a power of two between 4096 and 16777216");
        handshake.write(2, 4096, 1 << 20, 7, 0, 100);
        assertThat(validate(buffer, 0, 56)).isEqualTo("receive region of 100 bytes is smaller than the 8320 bytes it "
            + "must hold (2 rings of 4096 bytes, 2 credit lines of 64)");
        handshake.write(1, 4096, 1 << 20, 7, 0, 1L << 40);
        assertThat(validate(buffer, 0, 56)).isEqualTo("max streams 1 is not between 2 and 1024");
        handshake.write(2, 4096, 1023, 7, 0, 1L << 40);
        assertThat(validate(buffer, 0, 56)).isEqualTo("max message length 1023 is not between 1024 and 1073741824");
        handshake.write(2, 4096, 1024, 7, 0, 1L << 40);
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) 4, HandshakeFlyweight.BYTE_ORDER);
        assertThat(validate(buffer, 0, 56))
            .isEqualTo("handshake flags 0x4 are not known to version " + HandshakeFlyweight.VERSION
                + " (1 for AUTH, 2 for DIRECT, or both)");
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) HandshakeFlyweight.FLAG_DIRECT,
            HandshakeFlyweight.BYTE_ORDER);
        assertThat(validate(buffer, 0, 56)).as("DIRECT alone").isNull();
        handshake.write(2, 4096, 1024, 0, 0, 0);
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) HandshakeFlyweight.FLAG_AUTH,
            HandshakeFlyweight.BYTE_ORDER);
        assertThat(validate(buffer, 0, 40)).isEqualTo("authenticated handshake of 40 bytes is shorter than 52");
        assertThat(validate(buffer, 0, 52)).as("AUTH: no keys in the private data, so no region to check").isNull();
        handshake.write(2, 4096, 1024, 7, 0, 1L << 40);
        buffer.putShort(HandshakeFlyweight.RESERVED_OFFSET, (short) 0x100, HandshakeFlyweight.BYTE_ORDER);
        assertThat(validate(buffer, 0, 56)).isEqualTo("handshake reserved field is 0x100 (must be 0)");
        buffer.putInt(0, RejectFlyweight.MAGIC, HandshakeFlyweight.BYTE_ORDER);
        assertThat(validate(buffer, 0, 56))
            .isEqualTo("not an rdma-reactive handshake: private data starts with 0x4a525252, not the RRP1 magic");
        assertThat(validate(buffer, 20, 40)).startsWith("private data range [20, 60) lies outside the buffer");
        assertThat(validate(buffer, -1, 40)).contains("outside the buffer");
        assertThat(validate(null, 0, 40)).isEqualTo("no private data");
    }

    @Example
    void theReceiveRegionHoldsTheRingsThenTheCreditLines() {
        assertThat(requiredRegionLength(2, 4096)).isEqualTo(2 * 4096 + 2 * 64);
        assertThat(requiredRegionLength(1024, 16 << 20)).isEqualTo(1024L * (16 << 20) + 1024 * 64);
        for (final int streams : new int[] {2, 3, 100, 1024}) {
            for (final int capacity : new int[] {4096, 1 << 16, 16 << 20}) {
                for (int stream = 0; stream < streams; stream++) {
                    assertThat(HandshakeFlyweight.ringOffset(stream, capacity)).isEqualTo((long) stream * capacity);
                    assertThat(HandshakeFlyweight.creditOffset(stream, streams, capacity))
                        .isEqualTo((long) streams * capacity + stream * 64L);
                }
                assertThat(HandshakeFlyweight.ringOffset(streams - 1, capacity) + capacity)
                    .as("the credit lines start where the last ring ends")
                    .isEqualTo(HandshakeFlyweight.creditOffset(0, streams, capacity));
                assertThat(HandshakeFlyweight.creditOffset(streams - 1, streams, capacity) + 64)
                    .as("the last credit line ends the region").isEqualTo(requiredRegionLength(streams, capacity));
            }
        }
    }

    /**
     * The validator accepts exactly the valid space: fields drawn near every boundary (and anywhere), written with a
     * plain ByteBuffer, judged by a plain reading of the rules; an invalid handshake's reason names the first rule
     * broken, in the documented order, and the value that broke it.
     */
    @Property(tries = 3000, edgeCases = EdgeCasesMode.NONE)
    void acceptsExactlyTheValidSpaceAndNamesTheFirstProblem(@ForAll("handshakes") final Fields fields) {
        final byte[] bytes = new byte[fields.offset + Math.max(fields.length, 40) + 8];
        le(bytes).putInt(fields.offset, fields.magic)
            .putShort(fields.offset + 4, (short) fields.version)
            .putShort(fields.offset + 6, (short) fields.flags)
            .putShort(fields.offset + 8, (short) fields.maxStreams)
            .putShort(fields.offset + 10, (short) fields.reserved)
            .putInt(fields.offset + 12, fields.ringCapacity)
            .putInt(fields.offset + 16, fields.maxMessageLength)
            .putInt(fields.offset + 20, fields.rkey)
            .putLong(fields.offset + 24, fields.address)
            .putLong(fields.offset + 32, fields.regionLength);

        final String reason = validate(new UnsafeBuffer(bytes), fields.offset, fields.length);

        final String[] expected = firstProblem(fields);
        Statistics.label("problem").collect(expected == null ? "valid" : expected[0]);
        if (expected == null) {
            assertThat(reason).isNull();
        } else {
            assertThat(reason).isNotNull().contains(expected);
            assertThat(RejectFlyweight.decode(RejectFlyweight.encode(reason)))
                .as("what a reject carries of the reason to the peer").contains(expected);
        }
    }

    /** @return null if valid, else the phrase naming the first rule broken and the values the reason must name */
    private static String[] firstProblem(final Fields f) {
        final long required = (long) f.maxStreams * f.ringCapacity + (long) f.maxStreams * 64;
        if (f.length < 40) {
            return new String[] {"is shorter than the 40-byte handshake", f.length + " bytes"};
        } else if (f.magic != 0x31505252) {
            return new String[] {"magic", Integer.toHexString(f.magic)};
        } else if (f.version != HandshakeFlyweight.VERSION) {
            return new String[] {"is not supported", "version " + f.version};
        } else if ((f.flags & ~3) != 0) {
            return new String[] {"flags", Integer.toHexString(f.flags)};
        } else if ((f.flags & 1) != 0 && f.length < 52) {
            return new String[] {"authenticated handshake of", f.length + " bytes"};
        } else if (f.reserved != 0) {
            return new String[] {"reserved", Integer.toHexString(f.reserved)};
        } else if (f.maxStreams < 2 || f.maxStreams > 1024) {
            return new String[] {"max streams", "streams " + f.maxStreams + " "};
        } else if (f.ringCapacity < 4096 || f.ringCapacity > (16 << 20) || Integer.bitCount(f.ringCapacity) != 1) {
            return new String[] {"is not a power of two", "capacity " + f.ringCapacity + " "};
        } else if (f.maxMessageLength < 1024 || f.maxMessageLength > (1 << 30)) {
            return new String[] {"max message length", "length " + f.maxMessageLength + " "};
        } else if ((f.flags & 1) == 0 && f.regionLength < required) {
            return new String[] {"receive region of", f.regionLength + " bytes", "the " + required + " bytes"};
        }
        return null;
    }

    /** Handshake fields as a peer might send them; shorts are unsigned, as the validator reads them. */
    record Fields(int offset, int length, int magic, int version, int flags, int reserved, int maxStreams,
                  int ringCapacity, int maxMessageLength, int rkey, long address, long regionLength) {
    }

    @Provide
    Arbitrary<Fields> handshakes() {
        final Arbitrary<Integer> unsignedShort = Arbitraries.integers().between(0, 0xFFFF);
        final Arbitrary<Integer> maxStreams = Arbitraries.frequencyOf(
            weighted(6, Arbitraries.integers().between(2, 1024)),
            weighted(2, Arbitraries.of(0, 1, 2, 1024, 1025, 0xFFFF)),
            weighted(1, unsignedShort));
        final Arbitrary<Integer> ringCapacity = Arbitraries.frequencyOf(
            weighted(6, Arbitraries.integers().between(12, 24).map(log2 -> 1 << log2)),
            weighted(2, Arbitraries.of(4095, 4097, 5000, 2048, 1 << 25, (1 << 24) + 4096, 0, -4096,
                Integer.MIN_VALUE)),
            weighted(1, Arbitraries.integers()));
        final Arbitrary<Integer> maxMessageLength = Arbitraries.frequencyOf(
            weighted(6, Arbitraries.integers().between(1024, 1 << 30)),
            weighted(2, Arbitraries.of(1023, 1024, 1 << 30, (1 << 30) + 1, 0, -1, Integer.MAX_VALUE)),
            weighted(1, Arbitraries.integers()));
        final Arbitrary<Long> regionSlack = Arbitraries.frequencyOf(
            weighted(6, Arbitraries.longs().between(0, 1 << 20)),
            weighted(3, Arbitraries.longs().between(-(1 << 20), -1)),
            weighted(1, Arbitraries.just(Long.MIN_VALUE))); // marks "any long at all"
        return Builders.withBuilder(() -> new Object[13])
            .use(Arbitraries.integers().between(0, 32)).in((a, v) -> set(a, 0, v))
            .use(Arbitraries.frequencyOf(
                weighted(8, Arbitraries.of(40, 56)),
                weighted(1, Arbitraries.integers().between(0, 39)),
                weighted(1, Arbitraries.integers().between(41, 200)))).in((a, v) -> set(a, 1, v))
            .use(Arbitraries.frequencyOf(
                weighted(9, Arbitraries.just(HandshakeFlyweight.MAGIC)),
                weighted(1, Arbitraries.integers()))).in((a, v) -> set(a, 2, v))
            .use(Arbitraries.frequencyOf(
                weighted(9, Arbitraries.just(HandshakeFlyweight.VERSION)),
                weighted(1, unsignedShort))).in((a, v) -> set(a, 3, v))
            .use(Arbitraries.frequencyOf(
                weighted(9, Arbitraries.just(0)),
                weighted(1, unsignedShort))).in((a, v) -> set(a, 4, v))
            .use(Arbitraries.frequencyOf(
                weighted(9, Arbitraries.just(0)),
                weighted(1, unsignedShort))).in((a, v) -> set(a, 5, v))
            .use(maxStreams).in((a, v) -> set(a, 6, v))
            .use(ringCapacity).in((a, v) -> set(a, 7, v))
            .use(maxMessageLength).in((a, v) -> set(a, 8, v))
            .use(Arbitraries.integers()).in((a, v) -> set(a, 9, v))
            .use(Arbitraries.longs()).in((a, v) -> set(a, 10, v))
            .use(regionSlack).in((a, v) -> set(a, 11, v))
            .use(Arbitraries.longs()).in((a, v) -> set(a, 12, v))
            .build(a -> {
                final int streams = (Integer) a[6];
                final int capacity = (Integer) a[7];
                final long slack = (Long) a[11];
                final long regionLength = slack == Long.MIN_VALUE ? (Long) a[12]
                    : (long) streams * capacity + (long) streams * 64 + slack;
                return new Fields((Integer) a[0], (Integer) a[1], (Integer) a[2], (Integer) a[3], (Integer) a[4],
                    (Integer) a[5], streams, capacity, (Integer) a[8], (Integer) a[9], (Long) a[10], regionLength);
            });
    }

    private static Object[] set(final Object[] array, final int index, final Object value) {
        array[index] = value;
        return array;
    }

    @Property
    void validateNeverThrowsOnGarbage(
        @ForAll @Size(max = 80) final byte[] bytes,
        @ForAll @IntRange(min = -8, max = 90) final int offset,
        @ForAll @IntRange(min = -8, max = 90) final int length) {
        final String reason = validate(new UnsafeBuffer(bytes), offset, length);
        if (reason == null) {
            assertThat(offset).isNotNegative();
            assertThat(length).isGreaterThanOrEqualTo(40);
            assertThat(le(bytes).getInt(offset)).isEqualTo(HandshakeFlyweight.MAGIC);
        }
    }
}
