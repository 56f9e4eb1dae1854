package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.HandshakeAuthentication.MAC_LENGTH;
import static io.rdmareactive.internal.protocol.HandshakeAuthentication.MESSAGE_LENGTH;

import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The part of the authenticated handshake that runs over the connected queue pair, once per connection and before
 * its data path starts, on the thread that sets the connection up (never an event loop's), after the client proved
 * itself in its connect request: the client's keys, then the server's keys, each a SEND of {@link HandshakeAuthentication#MESSAGE_LENGTH} bytes (MAC, rkey,
 * address, length) into the peer's {@link AuthReceive}. Each side checks the MAC before it looks at the keys.
 */
final class AuthExchange {

    static final long SEND_WR_ID = Long.MIN_VALUE + 1;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final byte[] secret;
    private final byte[] proposal;
    private final byte[] answer;
    private final CompletionQueue completions;
    private final MemoryRegion local;
    private final MemoryRegion remote;
    private final QueuePair queuePair;
    private final AuthReceive receive;
    private final String peer;
    private long completedId;
    private int completedStatus;
    private int completedLength;
    private boolean completed;

    AuthExchange(final byte[] secret, final byte[] proposal, final byte[] answer, final CompletionQueue completions,
                 final MemoryRegion local, final MemoryRegion remote, final QueuePair queuePair,
                 final AuthReceive receive, final String peer) {
        this.secret = secret;
        this.proposal = proposal;
        this.answer = answer;
        this.completions = completions;
        this.local = local;
        this.remote = remote;
        this.queuePair = queuePair;
        this.receive = receive;
        this.peer = peer;
    }

    /** @return the nonce of an authenticated handshake */
    static byte[] nonce(final byte[] handshake) {
        return Arrays.copyOfRange(handshake, HandshakeFlyweight.AUTH_NONCE_OFFSET,
            HandshakeFlyweight.AUTH_NONCE_OFFSET + HandshakeAuthentication.NONCE_LENGTH);
    }

    /** @return the settings of a handshake, as the MACs cover them */
    static byte[] settings(final byte[] handshake) {
        return Arrays.copyOf(handshake, HandshakeAuthentication.SETTINGS_LENGTH);
    }

    /**
     * The client's part: checks the server's MAC, sends this side's keys, waits for the server's keys.
     *
     * @return the server's handshake with its keys, for the data path
     */
    HandshakeFlyweight asClient(final ProtocolOptions agreed, final long deadline, final long timeoutMillis) {
        this.waitedMillis = timeoutMillis;
        final byte[] serverMac = Arrays.copyOfRange(answer, HandshakeFlyweight.AUTH_MAC_OFFSET,
            HandshakeFlyweight.AUTH_MAC_OFFSET + HandshakeAuthentication.ANSWER_MAC_LENGTH);
        if (!HandshakeAuthentication.matches(mac("rr-server"), HandshakeAuthentication.ANSWER_MAC_LENGTH,
            serverMac)) {
            throw new ProtocolException("authentication failed: " + peer + " does not know the secret, or relays "
                + "another connection's handshake (its answer's MAC does not match); this side sent it no key");
        }
        sendKeys("rr-client", "the keys message");
        final HandshakeFlyweight keys = receiveKeys("rr-keys", "keys", agreed, deadline);
        awaitSend(deadline);
        receive.clear();
        return keys;
    }

    /**
     * The server's part: waits for the client's keys, checks their MAC, then sends this side's keys.
     *
     * @return the client's handshake with its keys, for the data path
     */
    HandshakeFlyweight asServer(final ProtocolOptions agreed, final long deadline, final long timeoutMillis) {
        this.waitedMillis = timeoutMillis;
        this.isServer = true;
        final HandshakeFlyweight keys = receiveKeys("rr-client", "keys message", agreed, deadline);
        sendKeys("rr-keys", "the keys");
        awaitSend(deadline);
        receive.clear();
        return keys;
    }

    /**
     * A MAC of this exchange: over both nonces and settings, the connection's two endpoints (the client's, then the
     * server's, as this side's queue pair sees them: a handshake relayed from another connection names other ones)
     * and {@code more}.
     */
    private byte[] mac(final String label, final byte[]... more) {
        final byte[][] parts = new byte[6 + more.length][];
        final boolean server = "rr-server".equals(label) || "rr-keys".equals(label);
        parts[0] = server ? nonce(proposal) : nonce(answer);
        parts[1] = server ? nonce(answer) : nonce(proposal);
        parts[2] = settings(proposal);
        parts[3] = settings(answer);
        parts[4] = isServer ? queuePair.peerEndpoint() : queuePair.localEndpoint();
        parts[5] = isServer ? queuePair.localEndpoint() : queuePair.peerEndpoint();
        System.arraycopy(more, 0, parts, 6, more.length);
        return HandshakeAuthentication.mac(secret, label, parts);
    }

    /**
     * The server's answer MAC ({@code "rr-server"}), made before its answer is sent: over both nonces and settings and
     * the connection's endpoints, as the client checks it.
     */
    static byte[] answerMac(final byte[] secret, final byte[] proposal, final byte[] answer,
                            final QueuePair queuePair) {
        return HandshakeAuthentication.mac(secret, "rr-server", nonce(proposal), nonce(answer), settings(proposal),
            settings(answer), queuePair.peerEndpoint(), queuePair.localEndpoint());
    }

    /** True on the server's side of the exchange (set by {@link #asServer}). */
    private boolean isServer;

    private static byte[] keys(final int rkey, final long address, final long length) {
        final byte[] keys = new byte[MESSAGE_LENGTH - MAC_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(keys);
        buffer.putInt(0, rkey, HandshakeFlyweight.BYTE_ORDER);
        buffer.putLong(4, address, HandshakeFlyweight.BYTE_ORDER);
        buffer.putLong(12, length, HandshakeFlyweight.BYTE_ORDER);
        return keys;
    }

    private void sendKeys(final String label, final String what) {
        final byte[] keys = keys(remote.rkey(), remote.address(), remote.length());
        final long offset = receive.sendOffset();
        final UnsafeBuffer staging = new UnsafeBuffer(local.address() + offset, MESSAGE_LENGTH);
        staging.putBytes(0, mac(label, keys));
        staging.putBytes(MAC_LENGTH, keys);
        final SendWorkRequest send = queuePair.newSendRequest(1);
        send.clear();
        send.add(SEND_WR_ID, WorkRequestOpcode.SEND, 0).sge(local.address() + offset, MESSAGE_LENGTH, local.lkey());
        final int status = queuePair.postSend(send);
        if (status != PostStatus.OK) {
            throw new ProtocolException("authentication failed: posting " + what + " to " + peer + " failed: "
                + PostStatus.name(status));
        }
    }

    private HandshakeFlyweight receiveKeys(final String label, final String what, final ProtocolOptions agreed,
                                           final long deadline) {
        await(AuthReceive.WR_ID, "its " + what, deadline);
        if (completedLength != MESSAGE_LENGTH) {
            throw new ProtocolException("authentication failed: the " + what + " of " + peer + " is "
                + completedLength + " bytes, not " + MESSAGE_LENGTH + " (protocol error)");
        }
        final byte[] message = receive.read(MESSAGE_LENGTH);
        final byte[] keys = Arrays.copyOfRange(message, MAC_LENGTH, MESSAGE_LENGTH);
        if (!HandshakeAuthentication.matches(mac(label, keys), MAC_LENGTH, Arrays.copyOf(message, MAC_LENGTH))) {
            throw new ProtocolException("authentication failed: the " + what + " of " + peer + " does not match (it "
                + "does not know the secret, or replays another exchange); this side sent it no key");
        }
        final UnsafeBuffer in = new UnsafeBuffer(keys);
        final int rkey = in.getInt(0, HandshakeFlyweight.BYTE_ORDER);
        final long address = in.getLong(4, HandshakeFlyweight.BYTE_ORDER);
        final long length = in.getLong(12, HandshakeFlyweight.BYTE_ORDER);
        final String problem = HandshakeFlyweight.receiveRegionProblem(length, agreed.maxStreams(),
            agreed.ringCapacity());
        if (problem != null) {
            throw new ProtocolException("the " + what + " of " + peer + " name a " + problem);
        }
        final byte[] handshake = new byte[HandshakeFlyweight.LENGTH];
        return new HandshakeFlyweight().wrap(new UnsafeBuffer(handshake), 0).write(agreed.maxStreams(),
            agreed.ringCapacity(), agreed.maxMessageLength(), rkey, address, length);
    }

    private void awaitSend(final long deadline) {
        if (!sendCompleted) {
            await(SEND_WR_ID, "the completion of this side's message", deadline);
        }
    }

    private boolean sendCompleted;
    /** The time the exchange was given, for the message when it runs out. */
    private long waitedMillis;

    /** Polls until the completion of {@code wrId}, backing off; fails at the deadline or if the connection ends. */
    private void await(final long wrId, final String what, final long deadline) {
        long park = 10_000;
        while (true) {
            completed = false;
            while (completions.poll(this::onCompletion, 1) > 0) {
                if (completedStatus != CompletionStatus.SUCCESS) {
                    throw new ProtocolException("authentication failed: the connection with " + peer + " ended "
                        + "before " + what + " (" + CompletionStatus.name(completedStatus)
                        + (queuePair.errorReason() != null ? ": " + queuePair.errorReason() : "") + ")");
                }
                if (completedId == SEND_WR_ID) {
                    sendCompleted = true;
                }
                if (completedId == wrId) {
                    return;
                }
                if (completedId != SEND_WR_ID) {
                    throw new ProtocolException("authentication failed: an unexpected completion (work request 0x"
                        + Long.toHexString(completedId) + ") while waiting for " + what + " (protocol error)");
                }
            }
            final QueuePairState state = queuePair.state();
            if (state == QueuePairState.ERROR || state == QueuePairState.CLOSED) {
                throw new ProtocolException("authentication failed: the connection with " + peer + " ended before "
                    + what + (queuePair.errorReason() != null ? " (" + queuePair.errorReason() + ")" : ""));
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new ProtocolException("authentication failed: no " + what.replaceFirst("^its ", "") + " from "
                    + peer + " in time (" + waitedMillis + " ms); the connection is dropped");
            }
            LockSupport.parkNanos(Math.min(park, left));
            park = Math.min(park * 2, MAX_PARK_NANOS);
        }
    }

    private void onCompletion(final Completion completion) {
        completed = true;
        completedId = completion.wrId();
        completedStatus = completion.status();
        completedLength = completion.byteLength();
    }
}
