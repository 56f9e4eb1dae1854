package io.rdmareactive;

import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import java.util.ArrayDeque;
import org.agrona.DirectBuffer;
import org.reactivestreams.Publisher;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The serving side of a call stream the peer opened: each CALL runs the connection's {@link StreamHandler} with
 * {@link StreamKind#REQUEST_RESPONSE} on the loop, as a {@link ServedCall}, and its answer goes back on the stream,
 * once. At most {@link CallHeaderFlyweight#MAX_CALLS} calls are served at once: one more CALL is read only when an
 * answer was queued, so a peer that sends faster than this side answers is held back by its demand. Loop only.
 */
final class ServedCalls extends CallStreamEnd {

    private static final Logger LOG = Loggers.getLogger(ServedCalls.class);

    private final StreamHandler handler;
    /** The calls being served, by call id. */
    private final ServedCall[] serving = new ServedCall[CallHeaderFlyweight.MAX_CALLS];
    /** Answers waiting for the peer's demand, in the order they were given. */
    private final ArrayDeque<ServedCall> answers = new ArrayDeque<>();
    /** The stream ended: answers are dropped, and their sends fail with this. */
    private Throwable ended;

    ServedCalls(final DefaultConnection connection, final StreamHandler handler) {
        super(connection);
        this.handler = handler;
    }

    @Override
    long initialDemand() {
        return CallHeaderFlyweight.MAX_CALLS;
    }

    @Override
    boolean isOpener() {
        return false;
    }

    @Override
    void onMessage(final DirectBuffer message, final int callId, final int type) {
        switch (type) {
            case CallHeaderFlyweight.CALL -> {
                if (serving[callId] != null) {
                    protocolError("a CALL with call id " + callId + ", which is in use");
                    return;
                }
                final ServedCall call = new ServedCall(this, callId, message);
                serving[callId] = call;
                connection.callsInUse(1);
                serve(call);
                call.handlerReturned();
            }
            case CallHeaderFlyweight.CANCEL -> {
                inbound.request(1); // a cancel is not a call: it takes no room of those served
                final ServedCall call = serving[callId];
                if (call != null) {
                    call.cancelledByPeer(); // else answered already: its answer and this cancel crossed
                }
            }
            default -> inbound.request(1); // ABORTED: a call that never was
        }
    }

    private void serve(final ServedCall call) {
        final Publisher<Void> handled;
        try {
            handled = handler.handle(StreamKind.REQUEST_RESPONSE, call, call);
        } catch (final Throwable ex) {
            if (ex instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            call.onError(ex);
            return;
        }
        if (handled == null) {
            call.onError(new NullPointerException("the REQUEST_RESPONSE handler returned null, not a Publisher"));
            return;
        }
        handled.subscribe(call);
    }

    /** {@code call}'s answer is decided (loop): it goes out as the peer's demand allows, and one more CALL may come. */
    void answer(final ServedCall call) {
        if (ended != null) {
            call.dropped(ended);
            return;
        }
        serving[call.callId] = null;
        connection.callsInUse(-1);
        answers.addLast(call);
        inbound.request(1);
        emit();
    }

    /** @return the error a call's answer is dropped with, once the stream ended; else null */
    Throwable endedWith() {
        return ended;
    }

    @Override
    CallMessage next() {
        return answers.pollFirst();
    }

    @Override
    boolean hasMore() {
        return !answers.isEmpty();
    }

    /** Logs a handler's failure, as a stream's handler's is. */
    static void logFailure(final Throwable error) {
        if (!(error instanceof RdmaConnectionException)) {
            LOG.warn("the REQUEST_RESPONSE handler failed", error);
        } else {
            LOG.debug("the REQUEST_RESPONSE handler failed", error);
        }
    }

    /** Logs an answer the codec could not encode. */
    static void logNotEncoded(final Throwable error) {
        LOG.warn("an answer could not be encoded; the caller gets an error", error);
    }

    @Override
    void ended(final Throwable error) {
        // the caller's side ended: the connection ended (error), or it gave up the stream (complete)
        endAll(error != null ? error : new RdmaStreamException(0, "the peer ended the call stream"));
        completeSend();
    }

    @Override
    void sendFailed(final Throwable error) {
        endAll(error);
    }

    private void endAll(final Throwable error) {
        if (ended != null) {
            return;
        }
        ended = error;
        broken = true; // no answer can go out any more: serve no further call
        for (int id = 0; id < serving.length; id++) {
            final ServedCall call = serving[id];
            if (call != null) {
                serving[id] = null;
                connection.callsInUse(-1);
                call.connectionEnded(error);
            }
        }
        ServedCall call;
        while ((call = answers.pollFirst()) != null) {
            call.dropped(error);
        }
    }
}
