package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.HEADER_LENGTH;
import static io.rdmareactive.internal.protocol.ProtocolStream.CONTROL_STREAM;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The control stream (stream 0) of one connection, which its loop alone writes and reads: the consumers' requests
 * and cancels go out as REQUEST_N and CANCEL, with the use they belong to; the peer's come in, each checked again on
 * a copy (the peer can rewrite its ring at any time) before its flyweight reads it; keepalives go out when the
 * connection is quiet; the regions this side closed are announced (REGION_CLOSED), and the peer's are passed up. A frame that fails its check, or names a use that has not begun, ends the connection.
 * Allocates nothing.
 */
final class ControlStream implements FrameConsumer {

    private final ProtocolConnection connection;
    private final ProtocolStream[] streams;
    private final int maxStreams;
    private final RequestNFlyweight requestNOut = new RequestNFlyweight();
    private final StreamControlFlyweight cancelOut = new StreamControlFlyweight();
    private final KeepaliveFlyweight keepaliveOut = new KeepaliveFlyweight();
    private final RegionClosedFlyweight regionClosedOut = new RegionClosedFlyweight();
    private final RegionClosedFlyweight regionClosedIn = new RegionClosedFlyweight();
    private final RequestNFlyweight requestNIn = new RequestNFlyweight();
    private final StreamControlFlyweight cancelIn = new StreamControlFlyweight();
    /** A copy of the control frame being read: the peer can rewrite its ring, so the copy is checked and used. */
    private final UnsafeBuffer controlFrame = new UnsafeBuffer(new byte[Math.max(RequestNFlyweight.LENGTH,
        Math.max(KeepaliveFlyweight.LENGTH, RegionClosedFlyweight.LENGTH))]);

    /** @param streams the connection's streams, filled in before the first duty cycle */
    ControlStream(final ProtocolConnection connection, final ProtocolStream[] streams) {
        this.connection = connection;
        this.streams = streams;
        this.maxStreams = streams.length;
    }

    /** Reads every frame that arrived on the control stream. @return frames read */
    int drain() {
        int frames = 0;
        final StreamReceiveRing control = streams[CONTROL_STREAM].receiveRing();
        while (!connection.isTerminated() && control.poll(this)) {
            frames++;
        }
        return frames;
    }

    /**
     * A frame of the control stream (the connection's loop): checked again on a copy, as the peer can rewrite its ring at any
     * time, then read through its flyweight. A frame that fails its check, or asks for a use of a stream that has not
     * begun, ends the connection.
     */
    @Override
    public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                                final byte flags) {
        final int frameLength = length + HEADER_LENGTH;
        controlFrame.putBytes(0, buffer, index - HEADER_LENGTH, Math.min(frameLength, controlFrame.capacity()));
        final int code = StreamReceiveRing.checkBody(controlFrame, 0, frameLength, type, CONTROL_STREAM, maxStreams);
        if (code != FrameCheck.OK) {
            connection.fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED, code)
                + " on the control stream (frame type " + type + ")");
            return;
        }
        switch (type) {
            case FrameHeaderFlyweight.REQUEST_N -> {
                requestNIn.wrap(controlFrame, 0);
                final int stream = requestNIn.streamId();
                if (!streams[stream].onPeerRequest(requestNIn.use(), requestNIn.n())) {
                    failUse("REQUEST_N", stream, requestNIn.use());
                    return;
                }
                connection.activity().onProducerReady(stream);
            }
            case FrameHeaderFlyweight.CANCEL -> {
                cancelIn.wrap(controlFrame, 0);
                final int stream = cancelIn.streamId();
                if (!streams[stream].onPeerCancel(cancelIn.use())) {
                    failUse("CANCEL", stream, cancelIn.use());
                    return;
                }
                connection.activity().onProducerReady(stream);
            }
            case FrameHeaderFlyweight.REGION_CLOSED -> {
                regionClosedIn.wrap(controlFrame, 0);
                connection.activity().onPeerRegionClosed(regionClosedIn.generation());
            }
            default -> {
                // KEEPALIVE: its arrival is what counts (checkBody let no other type through)
            }
        }
    }

    private void failUse(final String frame, final int stream, final int use) {
        connection.fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED, FrameCheck.BAD_USE)
            + " on the control stream ("
            + frame + " for use " + use + " of stream " + stream + ", which is at use " + streams[stream].use() + ")");
    }

    /**
     * Writes the consumers' requests and cancels into the control stream, as the driver owns it: for the data streams
     * of {@code active} (one bit per stream, the ones the loop looks at in this cycle), which every request, cancel and
     * consumer error marks.
     */
    int send(final long[] active) {
        int frames = 0;
        final StreamSendRing control = streams[CONTROL_STREAM].sendRing();
        for (int w = 0; w < active.length; w++) {
            long bits = active[w];
            while (bits != 0) {
                final int s = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (s == CONTROL_STREAM) {
                    continue;
                }
                final int sent = send(control, s);
                if (sent < 0) {
                    return frames;
                }
                frames += sent;
            }
        }
        return frames;
    }

    /** @return frames written for stream {@code s}, or -1 to stop (the control ring is full, or the connection failed) */
    private int send(final StreamSendRing control, final int s) {
        final ProtocolStream stream = streams[s];
        if (stream.consumerError() != null) {
            connection.fail(stream.isConsumerErrorLocal() ? "stream " + s + ": " + stream.consumerError()
                : ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " on stream " + s + ": "
                + stream.consumerError());
            return -1;
        }
        if (!stream.takeControl()) {
            return 0;
        }
        int frames = 0;
        final long n = stream.takenRequest;
        final boolean cancel = stream.takenCancel;
        final int use = stream.takenUse;
        if (n > 0) {
            final int index = control.claim(RequestNFlyweight.LENGTH - HEADER_LENGTH);
            if (index < 0) {
                stream.returnControl(n, cancel, use); // the control ring is full: next duty cycle
                return -1;
            }
            requestNOut.wrap(control.buffer(), index - HEADER_LENGTH).write(s, use, n);
            control.commit(FrameHeaderFlyweight.REQUEST_N, (byte) 0);
            frames++;
        }
        if (cancel) {
            final int index = control.claim(StreamControlFlyweight.LENGTH - HEADER_LENGTH);
            if (index < 0) {
                stream.returnControl(0, true, use);
                return -1;
            }
            cancelOut.wrap(control.buffer(), index - HEADER_LENGTH).write(FrameHeaderFlyweight.CANCEL, s, use);
            control.commit(FrameHeaderFlyweight.CANCEL, (byte) 0);
            frames++;
        }
        return frames;
    }

    /**
     * Tells the peer of the regions this side closed, as far as the control ring has room.
     *
     * @param closed the generations of the closed regions, in the order closed; the ones written are taken
     * @return frames written
     */
    int sendRegionsClosed(final org.agrona.collections.IntArrayQueue closed) {
        int frames = 0;
        final StreamSendRing control = streams[CONTROL_STREAM].sendRing();
        while (!closed.isEmpty()) {
            final int index = control.claim(RegionClosedFlyweight.LENGTH - HEADER_LENGTH);
            if (index < 0) {
                return frames; // the control ring is full: next duty cycle
            }
            regionClosedOut.wrap(control.buffer(), index - HEADER_LENGTH).write(closed.pollInt());
            control.commit(FrameHeaderFlyweight.REGION_CLOSED, (byte) 0);
            frames++;
        }
        return frames;
    }

    /**
     * Writes a KEEPALIVE carrying this side's time and how far it received the control stream.
     *
     * @return false if the control ring had no room
     */
    boolean keepalive(final long now) {
        final StreamSendRing control = streams[CONTROL_STREAM].sendRing();
        final int index = control.claim(KeepaliveFlyweight.LENGTH - HEADER_LENGTH);
        if (index < 0) {
            return false;
        }
        keepaliveOut.wrap(control.buffer(), index - HEADER_LENGTH)
            .write(now, streams[CONTROL_STREAM].receiveRing().receivedPosition());
        control.commit(FrameHeaderFlyweight.KEEPALIVE, (byte) 0);
        return true;
    }
}
