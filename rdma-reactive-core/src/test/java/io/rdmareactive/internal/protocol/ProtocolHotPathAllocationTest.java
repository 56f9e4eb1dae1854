package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.testsupport.AllocationMeter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Writing, checking and reading frames and immediates allocates nothing: the heap bytes this thread allocates over
 * 100 000 rounds are counted by the JVM ({@code ThreadMXBean.getCurrentThreadAllocatedBytes}), exact and independent
 * of timing. The bound is a tenth of a byte per round, far below one object per round.
 */
class ProtocolHotPathAllocationTest {

    private static final int ROUNDS = 100_000;
    private static final int RING = 4096;
    private static final int STREAMS = 64;

    private final UnsafeBuffer ring = new UnsafeBuffer(new byte[RING]);
    private final UnsafeBuffer privateData = new UnsafeBuffer(new byte[56]);
    private final FrameHeaderFlyweight header = new FrameHeaderFlyweight();
    private final RequestNFlyweight requestN = new RequestNFlyweight();
    private final StreamControlFlyweight control = new StreamControlFlyweight();
    private final ErrorFrameFlyweight error = new ErrorFrameFlyweight();
    private final OpenFrameFlyweight open = new OpenFrameFlyweight();
    private final KeepaliveFlyweight keepalive = new KeepaliveFlyweight();
    private final String message = "stream failed: caf\u00e9 \u20ac";
    private long sink;

    // one stream's send ring looped back into its receive ring, as the driver and a consumer use them
    private final UnsafeBuffer creditLine = new UnsafeBuffer(new byte[64]);
    private final StreamSendRing sendRing = new StreamSendRing(new UnsafeBuffer(new byte[RING]), creditLine);
    private final StreamReceiveRing receiveRing = new StreamReceiveRing(new UnsafeBuffer(new byte[RING]), 1, STREAMS);
    private final ProtocolStream stream = new ProtocolStream(1, STREAMS, sendRing, receiveRing);
    private final FrameConsumer consumer = (buffer, index, length, type, flags) -> {
        sink += length + flags + (type == FrameHeaderFlyweight.DATA ? 0 : stream.checkFrame(buffer, index, length, type));
    };

    @Test
    void writingCheckingAndReadingFramesAllocateNothing() {
        new HandshakeFlyweight().wrap(privateData, 0).write(STREAMS, RING, 1 << 20, 1, 2,
            HandshakeFlyweight.requiredRegionLength(STREAMS, RING));
        final int[] i = {0};
        final long allocated = AllocationMeter.currentThread().allocatedBy(20_000, ROUNDS, () -> round(i[0]++));

        assertThat(sink).isNotZero();
        AllocationMeter.assertNothingPerRound(allocated, ROUNDS, "rounds of writing, checking and reading frames");
    }

    @Test
    void sendingArrivingCheckingAndReadingOnAStreamAllocateNothing() {
        final int[] i = {0};
        final long allocated = AllocationMeter.currentThread().allocatedBy(20_000, ROUNDS, () -> streamRound(i[0]++));

        assertThat(sink).isNotZero();
        AllocationMeter.assertNothingPerRound(allocated, ROUNDS, "rounds of sending, arriving, checking and reading");
    }

    /** A message, an OPEN, a COMPLETE and an ERROR written, carried over, checked on arrival, read and checked again. */
    private void streamRound(final int i) {
        final int index = stream.claim(100 + (i & 7));
        if (index < 0) {
            throw new AssertionError("no room");
        }
        stream.buffer().putInt(index, i);
        stream.commit(ProtocolStream.WHOLE);
        if (!stream.open(OpenFrameFlyweight.REQUEST_RESPONSE) || !stream.complete() || !stream.error(i, message)) {
            throw new AssertionError("no room");
        }
        // the driver's write: the committed bytes land at the same offsets of the receive ring
        final long sent = sendRing.sentPosition();
        final long producer = sendRing.producerPosition();
        for (long position = sent; position < producer; position += 8) {
            final int at = (int) (position & (RING - 1));
            receiveRing.buffer().putLong(at, sendRing.buffer().getLong(at));
        }
        sendRing.sentTo(producer);
        if (receiveRing.onAdvance((int) (producer - sent)) != ProtocolError.NONE) {
            throw new AssertionError(FrameCheck.describe(receiveRing.frameCheck()));
        }
        while (stream.poll(consumer)) {
            sink++;
        }
        // the peer's credit and the write's completion free the room
        sendRing.completedTo(producer);
        CheckedWord.write(creditLine, 0, receiveRing.consumedPosition());
        if (sendRing.refreshCredit() != ProtocolError.NONE || receiveRing.creditToReturn() < -1) {
            throw new AssertionError("credit");
        }
        sink += StreamReceiveRing.checkBody(ring, 0, RequestNFlyweight.LENGTH, FrameHeaderFlyweight.REQUEST_N,
            ProtocolStream.CONTROL_STREAM, STREAMS);
    }

    private void round(final int i) {
        final int stream = i & (STREAMS - 1);
        int index = 0;
        header.wrap(ring, index).header(8 + 100, FrameHeaderFlyweight.DATA, FrameHeaderFlyweight.WHOLE);
        index += FrameHeaderFlyweight.alignedLength(8 + 100);
        requestN.wrap(ring, index).write(stream, i, i + 1L);
        index += FrameHeaderFlyweight.alignedLength(RequestNFlyweight.LENGTH);
        control.wrap(ring, index).write(FrameHeaderFlyweight.CANCEL, stream, i);
        index += FrameHeaderFlyweight.alignedLength(StreamControlFlyweight.LENGTH);
        error.wrap(ring, index).write(stream, i, message);
        index += FrameHeaderFlyweight.alignedLength(error.frameLength());
        open.wrap(ring, index).write(stream, OpenFrameFlyweight.REQUEST_RESPONSE, 1, i);
        index += FrameHeaderFlyweight.alignedLength(OpenFrameFlyweight.LENGTH);
        keepalive.wrap(ring, index).write(i, i);
        index += FrameHeaderFlyweight.alignedLength(KeepaliveFlyweight.LENGTH);
        header.wrap(ring, index).header(RING - index, FrameHeaderFlyweight.PAD, 0);
        final int published = RING;

        int at = 0;
        while (at < published) {
            final int code = FrameHeaderFlyweight.check(ring, at, published - at, RING);
            if (code != FrameCheck.OK) {
                throw new AssertionError(FrameCheck.describe(code));
            }
            header.wrap(ring, at);
            final int frameLength = header.frameLength();
            final int bodyCode = switch (header.type()) {
                case FrameHeaderFlyweight.REQUEST_N -> RequestNFlyweight.check(ring, at, frameLength, STREAMS);
                case FrameHeaderFlyweight.CANCEL -> StreamControlFlyweight.check(ring, at, frameLength, STREAMS);
                case FrameHeaderFlyweight.ERROR -> ErrorFrameFlyweight.check(ring, at, frameLength, STREAMS);
                case FrameHeaderFlyweight.OPEN -> OpenFrameFlyweight.check(ring, at, frameLength, STREAMS);
                case FrameHeaderFlyweight.KEEPALIVE -> KeepaliveFlyweight.check(ring, at, frameLength);
                default -> FrameCheck.OK;
            };
            if (bodyCode != FrameCheck.OK) {
                throw new AssertionError(FrameCheck.describe(bodyCode));
            }
            sink += frameLength + header.flags();
            at += FrameHeaderFlyweight.alignedLength(frameLength);
        }
        sink += requestN.n() + requestN.use() + control.streamId() + control.use() + error.messageLength() + error.errorCode() + open.correlationId()
            + keepalive.lastReceivedPosition();

        final int immediate = ImmediateCodec.encode(stream, published);
        if (!ImmediateCodec.isValid(immediate, STREAMS, RING)) {
            throw new AssertionError("immediate");
        }
        sink += ImmediateCodec.advance(immediate) + ImmediateCodec.streamId(immediate);
        if (HandshakeFlyweight.validate(privateData, 0, 56) != null) {
            throw new AssertionError("handshake");
        }
    }
}
