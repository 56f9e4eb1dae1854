package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.alignedLength;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Legal frame sequences, written back to back the way a sender does (each frame at the previous one's aligned end, a
 * PAD to the ring's end where the next frame would cross it), from any start in the ring: the frame check, with the
 * bytes published so far as {@code available}, walks them exactly: every frame passes, the walk ends exactly where
 * the writing did, and a sequence cut short inside its last frame stops there.
 */
class FrameWalkTest {

    private static final int MAX_STREAMS = ImmediateCodec.MAX_STREAMS;

    /**
     * A frame to write: its type and what it carries; for DATA, {@code value} is the payload length and
     * {@code streamId} the byte the payload is filled with.
     */
    record Spec(short type, int flags, int streamId, long value) {
    }

    @Property(tries = 500)
    void theCheckWalksEveryLegalSequenceExactly(
        @ForAll @IntRange(min = 12, max = 14) final int capacityLog2,
        @ForAll("unitsBeforeTheEnd") final int unitsBeforeTheEnd,
        @ForAll @IntRange(min = 0, max = 1000) final int lap,
        @ForAll @Size(min = 1, max = 200) final List<@net.jqwik.api.From("specs") Spec> specs,
        @ForAll final long seed) {
        final int capacity = 1 << capacityLog2;
        final long start = (long) lap * capacity + ((capacity - unitsBeforeTheEnd * 8L) & (capacity - 1));
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[capacity]);
        final byte[] garbage = new byte[capacity];
        new Random(seed).nextBytes(garbage);
        ring.putBytes(0, garbage); // stale bytes from earlier laps must not matter

        final List<Spec> written = new ArrayList<>();
        long position = start;
        long lastFrameStart = -1;
        boolean padded = false;
        for (final Spec spec : specs) {
            final int length = frameLength(spec);
            int index = (int) (position & (capacity - 1));
            final int padLength = alignedLength(length) > capacity - index ? capacity - index : 0;
            if (position - start + padLength + alignedLength(length) > capacity) {
                break; // the ring is full: the sender waits for credit
            }
            if (padLength > 0) {
                new FrameHeaderFlyweight().wrap(ring, index).header(padLength, FrameHeaderFlyweight.PAD, 0);
                position += padLength;
                index = 0;
                padded = true;
            }
            write(ring, index, spec);
            written.add(spec);
            lastFrameStart = position;
            position += alignedLength(length);
        }
        final long published = position - start;
        Statistics.label("wrap").collect(padded ? "PAD at the ring's end" : start % capacity + published > capacity
            ? "wrapped without a PAD" : "no wrap");
        assertThat(published).isLessThanOrEqualTo(capacity);

        assertThat(walk(ring, capacity, start, published)).isEqualTo(new Walk(written, FrameCheck.OK, published));

        // published short of the last frame's end: the walk stops at that frame, which does not pass
        final long lastEnd = position;
        final long cut = lastFrameStart + 1 + Math.floorMod(seed, lastEnd - lastFrameStart - 1);
        final Walk cutShort = walk(ring, capacity, start, cut - start);
        assertThat(cutShort.frames).isEqualTo(written.subList(0, written.size() - 1));
        assertThat(cutShort.stoppedWith).isIn(FrameCheck.TOO_SHORT, FrameCheck.TOO_LONG);
        assertThat(cutShort.consumed).isEqualTo(lastFrameStart - start);
    }

    /** What a walk saw: the frames (PADs skipped), the code it stopped on (OK if it used up what was published). */
    record Walk(List<Spec> frames, int stoppedWith, long consumed) {
    }

    /** The receiver's loop: check the header, check the body, read the frame, go on at its aligned end. */
    private static Walk walk(final UnsafeBuffer ring, final int capacity, final long start, final long published) {
        final List<Spec> frames = new ArrayList<>();
        final FrameHeaderFlyweight header = new FrameHeaderFlyweight();
        long consumed = 0;
        while (consumed < published) {
            final int index = (int) ((start + consumed) & (capacity - 1));
            final int available = (int) (published - consumed);
            final int code = FrameHeaderFlyweight.check(ring, index, available, capacity);
            if (code != FrameCheck.OK) {
                return new Walk(frames, code, consumed);
            }
            header.wrap(ring, index);
            final int frameLength = header.frameLength();
            final int bodyCode = checkBody(ring, index, header.type(), frameLength);
            assertThat(bodyCode).as(FrameCheck.describe(bodyCode)).isEqualTo(FrameCheck.OK);
            if (header.type() != FrameHeaderFlyweight.PAD) {
                frames.add(read(ring, index, header));
            } else {
                assertThat(index + frameLength).isEqualTo(capacity);
            }
            consumed += alignedLength(frameLength);
        }
        return new Walk(frames, FrameCheck.OK, consumed);
    }

    private static int checkBody(final UnsafeBuffer ring, final int index, final short type, final int frameLength) {
        return switch (type) {
            case FrameHeaderFlyweight.REQUEST_N -> RequestNFlyweight.check(ring, index, frameLength, MAX_STREAMS);
            case FrameHeaderFlyweight.CANCEL, FrameHeaderFlyweight.COMPLETE, FrameHeaderFlyweight.CLOSE ->
                StreamControlFlyweight.check(ring, index, frameLength, MAX_STREAMS);
            case FrameHeaderFlyweight.ERROR -> ErrorFrameFlyweight.check(ring, index, frameLength, MAX_STREAMS);
            case FrameHeaderFlyweight.OPEN -> OpenFrameFlyweight.check(ring, index, frameLength, MAX_STREAMS);
            case FrameHeaderFlyweight.KEEPALIVE -> KeepaliveFlyweight.check(ring, index, frameLength);
            default -> FrameCheck.OK; // PAD and DATA have no body to check
        };
    }

    private static int frameLength(final Spec spec) {
        return switch (spec.type) {
            case FrameHeaderFlyweight.DATA -> FrameHeaderFlyweight.HEADER_LENGTH + (int) spec.value;
            case FrameHeaderFlyweight.REQUEST_N -> RequestNFlyweight.LENGTH;
            case FrameHeaderFlyweight.ERROR -> ErrorFrameFlyweight.frameLength((int) spec.value);
            case FrameHeaderFlyweight.OPEN -> OpenFrameFlyweight.LENGTH;
            case FrameHeaderFlyweight.KEEPALIVE -> KeepaliveFlyweight.LENGTH;
            default -> StreamControlFlyweight.LENGTH;
        };
    }

    private static void write(final UnsafeBuffer ring, final int index, final Spec spec) {
        switch (spec.type) {
            case FrameHeaderFlyweight.DATA -> {
                new FrameHeaderFlyweight().wrap(ring, index).header(frameLength(spec), spec.type, spec.flags);
                ring.setMemory(index + 8, (int) spec.value, (byte) spec.streamId);
            }
            case FrameHeaderFlyweight.REQUEST_N -> new RequestNFlyweight().wrap(ring, index).write(spec.streamId,
                spec.streamId + 1, spec.value);
            case FrameHeaderFlyweight.ERROR -> new ErrorFrameFlyweight().wrap(ring, index).write(spec.streamId,
                (int) spec.value, "e".repeat((int) spec.value));
            case FrameHeaderFlyweight.OPEN -> new OpenFrameFlyweight().wrap(ring, index).write(spec.streamId,
                OpenFrameFlyweight.REQUEST_STREAM, spec.value, -spec.value);
            case FrameHeaderFlyweight.KEEPALIVE -> new KeepaliveFlyweight().wrap(ring, index).write(-spec.value,
                spec.value);
            default -> new StreamControlFlyweight().wrap(ring, index).write(spec.type, spec.streamId, spec.streamId + 2);
        }
    }

    private static Spec read(final UnsafeBuffer ring, final int index, final FrameHeaderFlyweight header) {
        final short type = header.type();
        return switch (type) {
            case FrameHeaderFlyweight.DATA -> {
                final int payload = header.frameLength() - 8;
                final int streamId = payload == 0 ? 0 : ring.getByte(index + 8) & 0xFF;
                for (int i = 0; i < payload; i++) {
                    assertThat(ring.getByte(index + 8 + i)).isEqualTo((byte) streamId);
                }
                yield new Spec(type, header.flags(), streamId, payload);
            }
            case FrameHeaderFlyweight.REQUEST_N -> {
                final RequestNFlyweight frame = new RequestNFlyweight().wrap(ring, index);
                assertThat(frame.use()).isEqualTo(frame.streamId() + 1);
                yield new Spec(type, 0, frame.streamId(), frame.n());
            }
            case FrameHeaderFlyweight.ERROR -> {
                final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(ring, index);
                assertThat(frame.message()).isEqualTo("e".repeat(frame.errorCode()));
                yield new Spec(type, 0, frame.streamId(), frame.messageLength());
            }
            case FrameHeaderFlyweight.OPEN -> {
                final OpenFrameFlyweight frame = new OpenFrameFlyweight().wrap(ring, index);
                assertThat(frame.correlationId()).isEqualTo(-frame.initialRequestN());
                yield new Spec(type, 0, frame.streamId(), frame.initialRequestN());
            }
            case FrameHeaderFlyweight.KEEPALIVE -> {
                final KeepaliveFlyweight frame = new KeepaliveFlyweight().wrap(ring, index);
                assertThat(frame.timestampNanos()).isEqualTo(-frame.lastReceivedPosition());
                yield new Spec(type, 0, 0, frame.lastReceivedPosition());
            }
            default -> {
                final StreamControlFlyweight frame = new StreamControlFlyweight().wrap(ring, index);
                assertThat(frame.use()).isEqualTo(frame.streamId() + 2);
                yield new Spec(type, 0, frame.streamId(), 0);
            }
        };
    }

    /** Where the sequence starts, in 8-byte units before the ring's end: mostly close to it, so that most wrap. */
    @Provide
    Arbitrary<Integer> unitsBeforeTheEnd() {
        return Arbitraries.frequencyOf(
            FrameHeaderFlyweightTest.weighted(3, Arbitraries.integers().between(1, 300)),
            FrameHeaderFlyweightTest.weighted(1, Arbitraries.integers().between(0, (1 << 14) - 1)));
    }

    @Provide
    Arbitrary<Spec> specs() {
        final Arbitrary<Integer> stream = Arbitraries.integers().between(0, MAX_STREAMS - 1);
        return Arbitraries.frequencyOf(
            FrameHeaderFlyweightTest.weighted(6, Combinators.combine(
                Arbitraries.of(FrameHeaderFlyweight.WHOLE, FrameHeaderFlyweight.FIRST, 0, FrameHeaderFlyweight.LAST),
                Arbitraries.integers().between(0, 255),
                Arbitraries.frequencyOf(
                    FrameHeaderFlyweightTest.weighted(4, Arbitraries.integers().between(0, 64)),
                    FrameHeaderFlyweightTest.weighted(1, Arbitraries.integers().between(0, 2000))))
                .as((flags, fill, payload) -> new Spec(FrameHeaderFlyweight.DATA, flags, payload == 0 ? 0 : fill,
                    payload))),
            FrameHeaderFlyweightTest.weighted(1, Combinators.combine(stream,
                Arbitraries.longs().between(1, Long.MAX_VALUE))
                .as((s, n) -> new Spec(FrameHeaderFlyweight.REQUEST_N, 0, s, n))),
            FrameHeaderFlyweightTest.weighted(1, Combinators.combine(stream, Arbitraries.of(
                    FrameHeaderFlyweight.CANCEL, FrameHeaderFlyweight.COMPLETE, FrameHeaderFlyweight.CLOSE))
                .as((s, type) -> new Spec(type, 0, s, 0))),
            FrameHeaderFlyweightTest.weighted(1, Combinators.combine(stream, Arbitraries.integers().between(0, 100))
                .as((s, length) -> new Spec(FrameHeaderFlyweight.ERROR, 0, s, length))),
            FrameHeaderFlyweightTest.weighted(1, Combinators.combine(stream, Arbitraries.longs().between(0,
                    Long.MAX_VALUE))
                .as((s, n) -> new Spec(FrameHeaderFlyweight.OPEN, 0, s, n))),
            FrameHeaderFlyweightTest.weighted(1, Arbitraries.longs().between(0, Long.MAX_VALUE)
                .map(position -> new Spec(FrameHeaderFlyweight.KEEPALIVE, 0, 0, position))));
    }
}
