package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Bytes.assertUntouchedOutside;
import static io.rdmareactive.internal.protocol.Bytes.filled;
import static io.rdmareactive.internal.protocol.Bytes.le;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the flyweights share through {@link Flyweight}, {@link FrameFlyweight}, {@link StreamFrameFlyweight} and
 * {@link StreamUseFrameFlyweight}: every frame flyweight reads the header {@link FrameHeaderFlyweight} reads, wherever
 * the frame lies; every frame that names a stream keeps its id right after the header, and its check refuses a stream
 * out of range the same way; likewise the use of the frames about one use of a stream.
 */
class FrameFlyweightBaseTest {

    private static final int MAX_STREAMS = 16;
    private static final int ROOM = ErrorFrameFlyweight.MAX_LENGTH;

    /** One of each frame flyweight, the header's included. */
    private static List<FrameFlyweight<?>> frames() {
        return List.of(new FrameHeaderFlyweight(), new RequestNFlyweight(), new StreamControlFlyweight(),
            new ErrorFrameFlyweight(), new OpenFrameFlyweight(), new KeepaliveFlyweight(),
            new RegionClosedFlyweight());
    }

    @Property
    void everyFrameFlyweightReadsTheHeaderWhereverItIsWrapped(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int frameLength,
        @ForAll final short type,
        @ForAll final byte flags,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + ROOM, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        FrameHeaderFlyweight.write(buffer, offset, frameLength, type, flags & 0xFF);

        for (final FrameFlyweight<?> frame : frames()) {
            assertThat(frame.wrap(buffer, offset)).as("wrap returns the flyweight itself").isSameAs(frame);
            assertThat(frame.buffer()).isSameAs(buffer);
            assertThat(frame.offset()).isEqualTo(offset);
            assertThat(frame.frameLength()).as("%s", frame).isEqualTo(frameLength);
            assertThat(frame.type()).as("%s", frame).isEqualTo(type);
            assertThat(frame.flags()).as("%s", frame).isEqualTo(flags & 0xFF);
            assertThat(frame.reserved()).as("%s", frame).isZero();
        }
    }

    @Property
    void theHeaderWrittenThroughAnyFrameFlyweightIsTheHeaderFlyweights(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int frameLength,
        @ForAll final short type,
        @ForAll final byte flags,
        @ForAll final byte fill) {
        final byte[] expected = filled(offset + ROOM, fill);
        FrameHeaderFlyweight.write(new UnsafeBuffer(expected), offset, frameLength, type, flags & 0xFF);

        for (final FrameFlyweight<?> frame : frames()) {
            final byte[] bytes = filled(offset + ROOM, fill);
            bytes[offset + FrameHeaderFlyweight.RESERVED_OFFSET] = (byte) ~fill;
            frame.wrap(new UnsafeBuffer(bytes), offset).header(frameLength, type, flags & 0xFF);
            assertThat(bytes).as("%s", frame).isEqualTo(expected);
            assertUntouchedOutside(bytes, offset, offset + FrameHeaderFlyweight.HEADER_LENGTH, fill);
        }
    }

    @Property
    void everyStreamFrameKeepsItsStreamIdRightAfterTheHeader(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int streamId,
        @ForAll final byte fill) {
        final List<StreamFrameFlyweight<?>> frames = List.of(new RequestNFlyweight(), new StreamControlFlyweight(),
            new ErrorFrameFlyweight(), new OpenFrameFlyweight());
        for (final StreamFrameFlyweight<?> frame : frames) {
            final byte[] bytes = filled(offset + ROOM, fill);
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            assertThat(frame.wrap(buffer, offset).streamId(streamId)).isSameAs(frame);
            assertThat(le(bytes).getInt(offset + FrameHeaderFlyweight.HEADER_LENGTH)).isEqualTo(streamId);
            assertThat(frame.streamId()).isEqualTo(streamId);
            assertUntouchedOutside(bytes, offset + StreamFrameFlyweight.STREAM_ID_OFFSET,
                offset + StreamFrameFlyweight.STREAM_ID_OFFSET + Integer.BYTES, fill);
        }
    }

    @Property
    void everyFrameAboutAUseKeepsItAfterTheStreamIdAndRefusesANegativeOne(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll final int use,
        @ForAll final byte fill) {
        final List<StreamUseFrameFlyweight<?>> frames = List.of(new RequestNFlyweight(), new StreamControlFlyweight());
        for (final StreamUseFrameFlyweight<?> frame : frames) {
            final byte[] bytes = filled(offset + ROOM, fill);
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            assertThat(frame.wrap(buffer, offset).use(use)).isSameAs(frame);
            assertThat(le(bytes).getInt(offset + StreamFrameFlyweight.STREAM_ID_OFFSET + Integer.BYTES)).isEqualTo(use);
            assertThat(frame.use()).isEqualTo(use);
            assertUntouchedOutside(bytes, offset + StreamUseFrameFlyweight.USE_OFFSET,
                offset + StreamUseFrameFlyweight.USE_OFFSET + Integer.BYTES, fill);
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ROOM]);
        final int expected = use < 0 ? FrameCheck.BAD_USE : FrameCheck.OK;
        new RequestNFlyweight().wrap(buffer, 0).write(1, use, 1);
        assertThat(RequestNFlyweight.check(buffer, 0, RequestNFlyweight.LENGTH, MAX_STREAMS)).isEqualTo(expected);
        new StreamControlFlyweight().wrap(buffer, 0).write(FrameHeaderFlyweight.COMPLETE, 1, use);
        assertThat(StreamControlFlyweight.check(buffer, 0, StreamControlFlyweight.LENGTH, MAX_STREAMS))
            .isEqualTo(expected);
    }

    @Property
    void everyStreamFrameCheckRefusesAStreamOutOfRange(@ForAll final int streamId) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ROOM]);
        final int expected = streamId < 0 || streamId >= MAX_STREAMS ? FrameCheck.BAD_STREAM_ID : FrameCheck.OK;

        new RequestNFlyweight().wrap(buffer, 0).write(streamId, 0, 1);
        assertThat(RequestNFlyweight.check(buffer, 0, RequestNFlyweight.LENGTH, MAX_STREAMS)).isEqualTo(expected);
        new StreamControlFlyweight().wrap(buffer, 0).write(FrameHeaderFlyweight.CANCEL, streamId, 0);
        assertThat(StreamControlFlyweight.check(buffer, 0, StreamControlFlyweight.LENGTH, MAX_STREAMS))
            .isEqualTo(expected);
        new OpenFrameFlyweight().wrap(buffer, 0).write(streamId, OpenFrameFlyweight.CHANNEL, 0, 0);
        assertThat(OpenFrameFlyweight.check(buffer, 0, OpenFrameFlyweight.LENGTH, MAX_STREAMS)).isEqualTo(expected);
        final ErrorFrameFlyweight error = new ErrorFrameFlyweight().wrap(buffer, 0).write(streamId, 1, "x");
        assertThat(ErrorFrameFlyweight.check(buffer, 0, error.frameLength(), MAX_STREAMS)).isEqualTo(expected);
    }

    @Example
    void everyLayoutSharesOneByteOrder() {
        assertThat(FrameHeaderFlyweight.BYTE_ORDER).isSameAs(Flyweight.BYTE_ORDER);
        assertThat(HandshakeFlyweight.BYTE_ORDER).isSameAs(Flyweight.BYTE_ORDER);
        assertThat(CallHeaderFlyweight.BYTE_ORDER).isSameAs(Flyweight.BYTE_ORDER);
    }
}
