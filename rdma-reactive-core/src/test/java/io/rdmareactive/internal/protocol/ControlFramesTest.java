package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Bytes.assertUntouchedOutside;
import static io.rdmareactive.internal.protocol.Bytes.filled;
import static io.rdmareactive.internal.protocol.Bytes.le;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweightTest.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** REQUEST_N, CANCEL / COMPLETE / CLOSE, OPEN and KEEPALIVE: layouts, round trips and checks. */
class ControlFramesTest {

    private static final int MAX_STREAMS = 16;

    @Example
    void frameLengthsAreWhatTheLayoutsSay() {
        assertThat(RequestNFlyweight.LENGTH).isEqualTo(24);
        assertThat(StreamControlFlyweight.LENGTH).isEqualTo(16);
        assertThat(OpenFrameFlyweight.LENGTH).isEqualTo(32);
        assertThat(KeepaliveFlyweight.LENGTH).isEqualTo(24);
        assertThat(ErrorFrameFlyweight.MIN_LENGTH).isEqualTo(18);
        assertThat(ErrorFrameFlyweight.MAX_LENGTH).isEqualTo(18 + 1024);
        // longs sit at multiples of 8 from the (8-aligned) frame start
        assertThat(RequestNFlyweight.N_OFFSET % 8).isZero();
        assertThat(OpenFrameFlyweight.INITIAL_REQUEST_N_OFFSET % 8).isZero();
        assertThat(OpenFrameFlyweight.CORRELATION_ID_OFFSET % 8).isZero();
        assertThat(KeepaliveFlyweight.TIMESTAMP_NANOS_OFFSET % 8).isZero();
        assertThat(KeepaliveFlyweight.LAST_RECEIVED_POSITION_OFFSET % 8).isZero();
    }

    // ---------------------------------------------------------------- REQUEST_N

    @Property
    void requestNRoundTripsAtAnyOffset(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int streamId,
        @ForAll final int use,
        @ForAll final long n,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + RequestNFlyweight.LENGTH + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new RequestNFlyweight().wrap(buffer, offset).write(streamId, use, n);

        final RequestNFlyweight read = new RequestNFlyweight().wrap(buffer, offset);
        assertThat(read.streamId()).isEqualTo(streamId);
        assertThat(read.use()).isEqualTo(use);
        assertThat(read.n()).isEqualTo(n);
        assertHeader(bytes, offset, RequestNFlyweight.LENGTH, FrameHeaderFlyweight.REQUEST_N);
        assertThat(le(bytes).getInt(offset + 8)).isEqualTo(streamId);
        assertThat(le(bytes).getInt(offset + 12)).isEqualTo(use);
        assertThat(le(bytes).getLong(offset + 16)).isEqualTo(n);
        assertUntouchedOutside(bytes, offset, offset + RequestNFlyweight.LENGTH, fill);
        assertThat(RequestNFlyweight.check(buffer, offset, RequestNFlyweight.LENGTH, MAX_STREAMS))
            .isEqualTo(streamId < 0 || streamId >= MAX_STREAMS ? FrameCheck.BAD_STREAM_ID
                : use < 0 ? FrameCheck.BAD_USE
                : n <= 0 ? FrameCheck.BAD_REQUEST_N : FrameCheck.OK);

        read.streamId(3).use(9).n(7);
        assertThat(read.streamId()).isEqualTo(3);
        assertThat(read.use()).isEqualTo(9);
        assertThat(read.n()).isEqualTo(7);
        assertUntouchedOutside(bytes, offset, offset + RequestNFlyweight.LENGTH, fill);
    }

    @Example
    void requestNChecks() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final RequestNFlyweight frame = new RequestNFlyweight().wrap(buffer, 8).write(MAX_STREAMS - 1, 0, 1);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        assertThat(RequestNFlyweight.check(buffer, 8, 23, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(RequestNFlyweight.check(buffer, 8, 25, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_LONG);
        assertThat(RequestNFlyweight.check(buffer, -8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        assertThat(RequestNFlyweight.check(buffer, 48, 24, MAX_STREAMS)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        frame.n(Long.MAX_VALUE);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        frame.n(0);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_REQUEST_N);
        frame.n(Long.MIN_VALUE);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_REQUEST_N);
        frame.n(1).streamId(MAX_STREAMS);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_STREAM_ID);
        frame.streamId(-1);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_STREAM_ID);
        frame.streamId(0).use(Integer.MAX_VALUE);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).as("any use >= 0").isEqualTo(FrameCheck.OK);
        frame.use(-1);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_USE);
        frame.use(Integer.MIN_VALUE).n(0);
        assertThat(RequestNFlyweight.check(buffer, 8, 24, MAX_STREAMS)).as("the use is checked before n")
            .isEqualTo(FrameCheck.BAD_USE);
    }

    // ---------------------------------------------------------------- REGION_CLOSED

    @Property
    void regionClosedRoundTripsAtAnyOffsetAndChecksItsGeneration(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int generation,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + RegionClosedFlyweight.LENGTH + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new RegionClosedFlyweight().wrap(buffer, offset).write(generation);

        assertThat(new RegionClosedFlyweight().wrap(buffer, offset).generation()).isEqualTo(generation);
        assertHeader(bytes, offset, RegionClosedFlyweight.LENGTH, FrameHeaderFlyweight.REGION_CLOSED);
        assertThat(le(bytes).getInt(offset + 8)).isEqualTo(generation);
        assertThat(le(bytes).getInt(offset + 12)).isZero();
        assertUntouchedOutside(bytes, offset, offset + RegionClosedFlyweight.LENGTH, fill);
        assertThat(RegionClosedFlyweight.check(buffer, offset, RegionClosedFlyweight.LENGTH))
            .isEqualTo(generation > 0 ? FrameCheck.OK : FrameCheck.BAD_GENERATION);
        assertThat(RegionClosedFlyweight.check(buffer, offset, RegionClosedFlyweight.LENGTH + 8))
            .as("exactly its length").isNotEqualTo(FrameCheck.OK);
        le(bytes).putInt(offset + 12, 1);
        assertThat(RegionClosedFlyweight.check(buffer, offset, RegionClosedFlyweight.LENGTH))
            .as("reserved word set").isEqualTo(FrameCheck.BAD_GENERATION);
    }

    // ---------------------------------------------------------------- CANCEL, COMPLETE, CLOSE

    @Property
    void streamControlRoundTripsAtAnyOffset(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll("streamControlTypes") final short type,
        @ForAll final int streamId,
        @ForAll final int use,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + StreamControlFlyweight.LENGTH + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new StreamControlFlyweight().wrap(buffer, offset).write(type, streamId, use);

        final StreamControlFlyweight read = new StreamControlFlyweight().wrap(buffer, offset);
        assertThat(read.type()).isEqualTo(type);
        assertThat(read.streamId()).isEqualTo(streamId);
        assertThat(read.use()).isEqualTo(use);
        assertHeader(bytes, offset, StreamControlFlyweight.LENGTH, type);
        assertThat(le(bytes).getInt(offset + 8)).isEqualTo(streamId);
        assertThat(le(bytes).getInt(offset + 12)).isEqualTo(use);
        assertUntouchedOutside(bytes, offset, offset + StreamControlFlyweight.LENGTH, fill);
        assertThat(StreamControlFlyweight.check(buffer, offset, StreamControlFlyweight.LENGTH, MAX_STREAMS))
            .isEqualTo(streamId < 0 || streamId >= MAX_STREAMS ? FrameCheck.BAD_STREAM_ID
                : use < 0 ? FrameCheck.BAD_USE : FrameCheck.OK);

        read.streamId(5).use(6);
        assertThat(read.streamId()).isEqualTo(5);
        assertThat(read.use()).isEqualTo(6);
        assertUntouchedOutside(bytes, offset, offset + StreamControlFlyweight.LENGTH, fill);
    }

    @Provide
    Arbitrary<Short> streamControlTypes() {
        return Arbitraries.of(FrameHeaderFlyweight.CANCEL, FrameHeaderFlyweight.COMPLETE, FrameHeaderFlyweight.CLOSE);
    }

    @Example
    void streamControlChecks() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
        final StreamControlFlyweight frame = new StreamControlFlyweight().wrap(buffer, 8)
            .write(FrameHeaderFlyweight.CANCEL, 0, 0);
        assertThat(StreamControlFlyweight.check(buffer, 8, 16, MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        assertThat(StreamControlFlyweight.check(buffer, 8, 15, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(StreamControlFlyweight.check(buffer, 8, 12, MAX_STREAMS)).as("version 1's old length")
            .isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(StreamControlFlyweight.check(buffer, 8, 17, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_LONG);
        assertThat(StreamControlFlyweight.check(buffer, 24, 16, MAX_STREAMS)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        frame.use(Integer.MAX_VALUE);
        assertThat(StreamControlFlyweight.check(buffer, 8, 16, MAX_STREAMS)).as("any use >= 0").isEqualTo(FrameCheck.OK);
        frame.use(-1);
        assertThat(StreamControlFlyweight.check(buffer, 8, 16, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_USE);
        frame.use(0).streamId(MAX_STREAMS);
        assertThat(StreamControlFlyweight.check(buffer, 8, 16, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_STREAM_ID);
        frame.streamId(Integer.MIN_VALUE);
        assertThat(StreamControlFlyweight.check(buffer, 8, 16, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_STREAM_ID);
    }

    // ---------------------------------------------------------------- OPEN

    @Property
    void openRoundTripsAtAnyOffset(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int streamId,
        @ForAll final int kind,
        @ForAll final long initialRequestN,
        @ForAll final long correlationId,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + OpenFrameFlyweight.LENGTH + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new OpenFrameFlyweight().wrap(buffer, offset).write(streamId, kind, initialRequestN, correlationId);

        final OpenFrameFlyweight read = new OpenFrameFlyweight().wrap(buffer, offset);
        assertThat(read.streamId()).isEqualTo(streamId);
        assertThat(read.kind()).isEqualTo(kind);
        assertThat(read.initialRequestN()).isEqualTo(initialRequestN);
        assertThat(read.correlationId()).isEqualTo(correlationId);
        assertHeader(bytes, offset, OpenFrameFlyweight.LENGTH, FrameHeaderFlyweight.OPEN);
        assertThat(le(bytes).getInt(offset + 8)).isEqualTo(streamId);
        assertThat(le(bytes).getInt(offset + 12)).isEqualTo(kind);
        assertThat(le(bytes).getLong(offset + 16)).isEqualTo(initialRequestN);
        assertThat(le(bytes).getLong(offset + 24)).isEqualTo(correlationId);
        assertUntouchedOutside(bytes, offset, offset + OpenFrameFlyweight.LENGTH, fill);
        assertThat(OpenFrameFlyweight.check(buffer, offset, OpenFrameFlyweight.LENGTH, MAX_STREAMS))
            .isEqualTo(streamId < 0 || streamId >= MAX_STREAMS ? FrameCheck.BAD_STREAM_ID
                : kind < 1 || kind > 4 ? FrameCheck.BAD_KIND
                : initialRequestN < 0 ? FrameCheck.BAD_REQUEST_N : FrameCheck.OK);

        read.streamId(1).kind(OpenFrameFlyweight.CHANNEL).initialRequestN(0).correlationId(-1);
        assertThat(read.streamId()).isEqualTo(1);
        assertThat(read.kind()).isEqualTo(OpenFrameFlyweight.CHANNEL);
        assertThat(read.initialRequestN()).isZero();
        assertThat(read.correlationId()).isEqualTo(-1);
        assertUntouchedOutside(bytes, offset, offset + OpenFrameFlyweight.LENGTH, fill);
    }

    @Example
    void openChecks() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[48]);
        final OpenFrameFlyweight frame = new OpenFrameFlyweight().wrap(buffer, 8)
            .write(2, OpenFrameFlyweight.REQUEST_STREAM, 0, 42);
        assertThat(OpenFrameFlyweight.check(buffer, 8, 32, MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        assertThat(OpenFrameFlyweight.check(buffer, 8, 31, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(OpenFrameFlyweight.check(buffer, 8, 33, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_LONG);
        assertThat(OpenFrameFlyweight.check(buffer, 24, 32, MAX_STREAMS)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        for (int kind = OpenFrameFlyweight.FIRE_AND_FORGET; kind <= OpenFrameFlyweight.CHANNEL; kind++) {
            frame.kind(kind);
            assertThat(OpenFrameFlyweight.check(buffer, 8, 32, MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        }
        frame.kind(0);
        assertThat(OpenFrameFlyweight.check(buffer, 8, 32, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_KIND);
        frame.kind(5);
        assertThat(OpenFrameFlyweight.check(buffer, 8, 32, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_KIND);
        frame.kind(OpenFrameFlyweight.FIRE_AND_FORGET).initialRequestN(-1);
        assertThat(OpenFrameFlyweight.check(buffer, 8, 32, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_REQUEST_N);
        frame.initialRequestN(Long.MAX_VALUE).streamId(MAX_STREAMS);
        assertThat(OpenFrameFlyweight.check(buffer, 8, 32, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_STREAM_ID);
    }

    // ---------------------------------------------------------------- KEEPALIVE

    @Property
    void keepaliveRoundTripsAtAnyOffset(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final long timestampNanos,
        @ForAll final long lastReceivedPosition,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + KeepaliveFlyweight.LENGTH + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new KeepaliveFlyweight().wrap(buffer, offset).write(timestampNanos, lastReceivedPosition);

        final KeepaliveFlyweight read = new KeepaliveFlyweight().wrap(buffer, offset);
        assertThat(read.timestampNanos()).isEqualTo(timestampNanos);
        assertThat(read.lastReceivedPosition()).isEqualTo(lastReceivedPosition);
        assertHeader(bytes, offset, KeepaliveFlyweight.LENGTH, FrameHeaderFlyweight.KEEPALIVE);
        assertThat(le(bytes).getLong(offset + 8)).isEqualTo(timestampNanos);
        assertThat(le(bytes).getLong(offset + 16)).isEqualTo(lastReceivedPosition);
        assertUntouchedOutside(bytes, offset, offset + KeepaliveFlyweight.LENGTH, fill);
        assertThat(KeepaliveFlyweight.check(buffer, offset, KeepaliveFlyweight.LENGTH))
            .isEqualTo(lastReceivedPosition < 0 ? FrameCheck.BAD_POSITION : FrameCheck.OK);

        read.timestampNanos(1).lastReceivedPosition(2);
        assertThat(read.timestampNanos()).isEqualTo(1);
        assertThat(read.lastReceivedPosition()).isEqualTo(2);
        assertUntouchedOutside(bytes, offset, offset + KeepaliveFlyweight.LENGTH, fill);
    }

    @Example
    void keepaliveChecks() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
        new KeepaliveFlyweight().wrap(buffer, 8).write(Long.MIN_VALUE, 0);
        assertThat(KeepaliveFlyweight.check(buffer, 8, 24)).isEqualTo(FrameCheck.OK);
        assertThat(KeepaliveFlyweight.check(buffer, 8, 8)).isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(KeepaliveFlyweight.check(buffer, 8, 32)).isEqualTo(FrameCheck.TOO_LONG);
        assertThat(KeepaliveFlyweight.check(buffer, 16, 24)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        assertThat(KeepaliveFlyweight.check(buffer, Integer.MIN_VALUE, 24)).isEqualTo(FrameCheck.OUT_OF_RANGE);
    }

    // ---------------------------------------------------------------- hostile bytes, every body check

    /** A body check, as the receiver calls it after the header check. */
    @FunctionalInterface
    interface BodyCheck {
        int check(DirectBuffer buffer, int index, int frameLength, int maxStreams);
    }

    /** Each body check, its frame's length, and a writer of a plausible (often valid) frame of that type. */
    record Body(String name, BodyCheck check, int length, PlausibleWriter writer) {
        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    interface PlausibleWriter {
        void write(UnsafeBuffer buffer, int index, int streamId, long value);
    }

    static final List<Body> BODIES = List.of(
        new Body("REQUEST_N", RequestNFlyweight::check, RequestNFlyweight.LENGTH,
            (b, i, s, v) -> new RequestNFlyweight().wrap(b, i).write(s, (int) (v >> 2), v)),
        new Body("CANCEL", StreamControlFlyweight::check, StreamControlFlyweight.LENGTH,
            (b, i, s, v) -> new StreamControlFlyweight().wrap(b, i).write(FrameHeaderFlyweight.CANCEL, s, (int) v)),
        new Body("OPEN", OpenFrameFlyweight::check, OpenFrameFlyweight.LENGTH,
            (b, i, s, v) -> new OpenFrameFlyweight().wrap(b, i).write(s, (int) (v % 6), v >> 3, v)),
        new Body("KEEPALIVE", (buffer, index, frameLength, maxStreams) ->
            KeepaliveFlyweight.check(buffer, index, frameLength), KeepaliveFlyweight.LENGTH,
            (b, i, s, v) -> new KeepaliveFlyweight().wrap(b, i).write(v, v >> 1)),
        new Body("ERROR", ErrorFrameFlyweight::check, -1,
            (b, i, s, v) -> {
                new ErrorFrameFlyweight().wrap(b, i).write(s, (int) v, "x".repeat((int) (v & 31)));
                if ((v & 0x100) != 0) {
                    b.putShort(i + ErrorFrameFlyweight.MESSAGE_LENGTH_OFFSET, (short) (v >> 9));
                }
            }));

    /**
     * Whatever the bytes, index, frame length and stream count, no body check throws, and none reads outside
     * {@code [index, index + frameLength)}: the buffer is a {@link GuardedBuffer} over exactly that range.
     */
    @Property(tries = 3000, edgeCases = EdgeCasesMode.NONE)
    void bodyChecksOfHostileBytesNeverThrowNorReadOutsideTheFrame(@ForAll("hostileBodies") final HostileBody hostile) {
        final GuardedBuffer buffer = GuardedBuffer.exactly(hostile.bytes, hostile.index, hostile.frameLength);

        final int code = hostile.body.check.check(buffer, hostile.index, hostile.frameLength, hostile.maxStreams);

        Statistics.label("body").collect(hostile.body.name, FrameCheck.describe(code));
        assertThat(code).isIn(FrameCheck.OK, FrameCheck.TOO_SHORT, FrameCheck.TOO_LONG, FrameCheck.BAD_FLAGS,
            FrameCheck.BAD_STREAM_ID, FrameCheck.BAD_REQUEST_N, FrameCheck.BAD_KIND, FrameCheck.BAD_MESSAGE_LENGTH,
            FrameCheck.BAD_POSITION, FrameCheck.OUT_OF_RANGE, FrameCheck.BAD_USE);
        if (code == FrameCheck.OK) {
            final ByteBuffer frame = le(hostile.bytes);
            final int index = hostile.index;
            assertThat(index).isNotNegative();
            assertThat((long) index + hostile.frameLength).isLessThanOrEqualTo(hostile.bytes.length);
            switch (hostile.body.name) {
                case "KEEPALIVE" -> assertThat(frame.getLong(index + 16)).isNotNegative();
                case "ERROR" -> assertThat(hostile.frameLength).isEqualTo(18 + (frame.getShort(index + 16) & 0xFFFF))
                    .isLessThanOrEqualTo(18 + 1024);
                default -> assertThat(frame.getInt(index + 8)).isNotNegative().isLessThan(hostile.maxStreams);
            }
            if (hostile.body.length >= 0) {
                assertThat(hostile.frameLength).isEqualTo(hostile.body.length);
            }
            if (hostile.body.name.equals("REQUEST_N")) {
                assertThat(frame.getInt(index + 12)).as("use").isNotNegative();
                assertThat(frame.getLong(index + 16)).isPositive();
            }
            if (hostile.body.name.equals("CANCEL")) {
                assertThat(frame.getInt(index + 12)).as("use").isNotNegative();
            }
            if (hostile.body.name.equals("OPEN")) {
                assertThat(frame.getInt(index + 12)).isBetween(1, 4);
                assertThat(frame.getLong(index + 16)).isNotNegative();
            }
        }
    }

    record HostileBody(Body body, byte[] bytes, int index, int frameLength, int maxStreams) {
    }

    @Provide
    Arbitrary<HostileBody> hostileBodies() {
        final Arbitrary<Integer> lengths = Arbitraries.frequencyOf(
            weighted(8, Arbitraries.integers().between(0, 128)),
            weighted(1, Arbitraries.integers().between(0, 1100)));
        return Arbitraries.of(BODIES).flatMap(body -> lengths.flatMap(length -> {
            final Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofSize(length);
            final Arbitrary<Integer> index = Arbitraries.frequencyOf(
                weighted(8, Arbitraries.integers().between(0, Math.max(0, length - PLAUSIBLE_ROOM))),
                weighted(1, Arbitraries.integers().between(-16, length + 16)),
                weighted(1, Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE)));
            final Arbitrary<Integer> frameLength = Arbitraries.frequencyOf(
                weighted(4, Arbitraries.just(-1)), // the plausible frame's own length
                weighted(4, Arbitraries.integers().between(-8, 64)),
                weighted(1, Arbitraries.integers().between(-8, length + 16)),
                weighted(1, Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE)));
            final Arbitrary<Integer> maxStreams = Arbitraries.frequencyOf(
                weighted(8, Arbitraries.integers().between(1, 1024)),
                weighted(1, Arbitraries.of(0, -1, Integer.MAX_VALUE)));
            final Arbitrary<Integer> streamId = Arbitraries.frequencyOf(
                weighted(8, Arbitraries.integers().between(0, 1030)),
                weighted(1, Arbitraries.integers()));
            final Arbitrary<Long> value = Arbitraries.frequencyOf(
                weighted(8, Arbitraries.longs().between(0, 1000)),
                weighted(1, Arbitraries.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE)),
                weighted(1, Arbitraries.longs()));
            final Arbitrary<Boolean> plausible = Arbitraries.of(true, true, true, false);
            return Combinators.combine(bytes, index, frameLength, maxStreams, streamId, value, plausible)
                .as((b, i, l, m, s, v, p) -> hostileBody(body, b, i, l, m, s, v, p));
        }));
    }

    /** Room for any plausible frame: the longest is an ERROR with 31 bytes of message. */
    private static final int PLAUSIBLE_ROOM = ErrorFrameFlyweight.MIN_LENGTH + 31;

    private static HostileBody hostileBody(final Body body, final byte[] bytes, final int index, final int length,
                                           final int maxStreams, final int streamId, final long value,
                                           final boolean plausible) {
        int frameLength = length;
        if (plausible && index >= 0 && (long) index + PLAUSIBLE_ROOM <= bytes.length) {
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            body.writer.write(buffer, index, streamId, value);
            if (length == -1) {
                frameLength = buffer.getInt(index, FrameHeaderFlyweight.BYTE_ORDER);
            }
        }
        return new HostileBody(body, bytes, index, frameLength, maxStreams);
    }

    private static void assertHeader(final byte[] bytes, final int offset, final int frameLength, final short type) {
        assertThat(le(bytes).getInt(offset)).isEqualTo(frameLength);
        assertThat(le(bytes).getShort(offset + 4)).isEqualTo(type);
        assertThat(bytes[offset + 6]).as("flags").isZero();
        assertThat(bytes[offset + 7]).as("reserved").isZero();
    }
}
