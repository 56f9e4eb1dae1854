package io.rdmareactive;

import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import java.util.ArrayDeque;
import org.agrona.DirectBuffer;

/**
 * This side's request/response calls to the peer, on one call stream of the connection, opened at the first call and
 * kept while it works. Up to {@link CallHeaderFlyweight#MAX_CALLS} calls are in flight at once, each with a call id
 * from when its CALL is sent until its answer arrives (a call given up meanwhile keeps its id until then: its CANCEL
 * goes out, and its answer is dropped); calls wait, in order, for the stream to open, for an id or for the peer's
 * demand, and once {@code MAX_CALLS} + {@link DefaultConnection#MAX_WAITING_REQUESTS} are in flight or waiting, a
 * further call is refused with {@link RdmaStreamsBusyException}. Cancels go
 * out before calls that wait. If the stream ends (the connection ends, or the peer failed it), every call on it fails,
 * and the next call opens a new one. Loop only.
 */
final class OutgoingCalls extends CallStreamEnd implements DefaultConnection.Opener {

    private static final int CLOSED = 0;
    private static final int OPENING = 1;
    private static final int OPEN = 2;

    private int state = CLOSED;
    /** Calls waiting for an id or for demand, in order; a given-up one is skipped. */
    private final ArrayDeque<RequestResponse.Call<?, ?>> waiting = new ArrayDeque<>();
    /** Calls sent and given up, whose CANCEL waits to go out. */
    private final ArrayDeque<RequestResponse.Call<?, ?>> cancels = new ArrayDeque<>();
    /** The calls in flight, by call id. */
    private final RequestResponse.Call<?, ?>[] inFlight = new RequestResponse.Call<?, ?>[CallHeaderFlyweight.MAX_CALLS];
    private final int[] freeIds = new int[CallHeaderFlyweight.MAX_CALLS];
    private int free;

    OutgoingCalls(final DefaultConnection connection) {
        super(connection);
        for (int id = 0; id < freeIds.length; id++) {
            freeIds[id] = freeIds.length - 1 - id; // taken from the end: id 0 first
        }
        free = freeIds.length;
    }

    /** Takes a call (loop): it is sent as soon as an id and the peer's demand allow, or refused now. */
    void submit(final RequestResponse.Call<?, ?> call) {
        while (!waiting.isEmpty() && waiting.peekFirst().isGivenUp()) {
            waiting.pollFirst();
        }
        final int inFlightNow = CallHeaderFlyweight.MAX_CALLS - free;
        if (inFlightNow + waiting.size() >= CallHeaderFlyweight.MAX_CALLS + DefaultConnection.MAX_WAITING_REQUESTS) {
            call.fail(new RdmaStreamsBusyException("all " + CallHeaderFlyweight.MAX_CALLS + " calls of this "
                + "connection are in flight and " + DefaultConnection.MAX_WAITING_REQUESTS + " more wait; wait for "
                + "answers",
                connection.busy().requestStreams()));
            return;
        }
        call.waiting(this);
        waiting.addLast(call);
        connection.callsInUse(1);
        if (state == CLOSED) {
            state = OPENING;
            connection.openOnLoop(StreamKind.REQUEST_RESPONSE, this);
        } else if (state == OPEN) {
            emit();
        }
    }

    /** A call was given up after it was sent (loop): its CANCEL goes out before any call that waits. */
    void cancelSent(final RequestResponse.Call<?, ?> call) {
        cancels.addLast(call);
        if (state == OPEN) {
            emit();
        }
    }

    /** A call ended without an answer to wait for (loop): given up before it was sent, or refused. */
    void ended(final RequestResponse.Call<?, ?> call) {
        connection.callsInUse(-1);
    }

    /** A call's CALL was replaced by ABORTED (loop, inside the send's encode): its id is free again. */
    void aborted(final RequestResponse.Call<?, ?> call) {
        release(call.callId);
        connection.callsInUse(-1);
    }

    private void release(final int id) {
        inFlight[id] = null;
        freeIds[free++] = id;
    }

    // ------------------------------------------------------------------------------------------------ Opener

    @Override
    public void opened(final StreamChannel opened) {
        state = OPEN;
        start(opened);
        emit();
    }

    @Override
    public void refused(final Throwable error) {
        state = CLOSED;
        failAll(error);
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    // ------------------------------------------------------------------------------------------------ sending

    @Override
    CallMessage next() {
        RequestResponse.Call<?, ?> call;
        while ((call = cancels.pollFirst()) != null) {
            if (call.emitCancel()) {
                return call;
            }
        }
        while (free > 0 && (call = waiting.pollFirst()) != null) {
            if (call.isGivenUp()) {
                continue;
            }
            final int id = freeIds[--free];
            inFlight[id] = call;
            call.emitCall(id);
            return call;
        }
        return null;
    }

    @Override
    boolean hasMore() {
        return !cancels.isEmpty() || free > 0 && !waiting.isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ answers

    @Override
    long initialDemand() {
        return Long.MAX_VALUE; // at most one answer per call in flight: bounded by the ids
    }

    @Override
    boolean isOpener() {
        return true;
    }

    @Override
    void onMessage(final DirectBuffer message, final int callId, final int type) {
        final RequestResponse.Call<?, ?> call = inFlight[callId];
        if (call == null || !call.isSent()) {
            protocolError("an answer to call " + callId + ", which is not in flight");
            return;
        }
        release(callId);
        connection.callsInUse(-1);
        call.answered(type, message);
        emit(); // an id is free: a waiting call may go
    }

    @Override
    void ended(final Throwable error) {
        final Throwable why = error != null ? error : new RdmaStreamException(0, "the peer ended the call stream");
        if (send != null) {
            send.cancel(); // this direction ends too (COMPLETE), so that the stream comes back
        }
        failAll(why);
    }

    @Override
    void sendFailed(final Throwable error) {
        failAll(error);
    }

    /** The stream ended or could not open (loop): every call on it fails; the next call opens a new one. */
    private void failAll(final Throwable error) {
        if (connection.outgoingCalls == this) {
            connection.outgoingCalls = null;
        }
        state = CLOSED;
        broken = true; // an answer still on its way belongs to a call failed here: read nothing more
        for (int id = 0; id < inFlight.length; id++) {
            final RequestResponse.Call<?, ?> call = inFlight[id];
            if (call != null) {
                release(id);
                connection.callsInUse(-1);
                call.finished();
                call.fail(error);
            }
        }
        cancels.clear();
        RequestResponse.Call<?, ?> call;
        while ((call = waiting.peekFirst()) != null) {
            call.fail(error); // a call still waiting is dropped by it, and counted out
            waiting.pollFirst();
        }
    }

    /** @return the calls in flight and waiting, for diagnostics */
    @Override
    public String toString() {
        return "calls[" + (state == OPEN ? "open" : state == OPENING ? "opening" : "closed") + ", "
            + (inFlight.length - free) + " in flight, " + waiting.size() + " waiting, " + cancels.size()
            + " cancels to send]";
    }
}
