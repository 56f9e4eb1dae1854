package io.rdmareactive;

import io.rdmareactive.internal.protocol.OneSidedOperation;
import io.rdmareactive.spi.CompletionStatus;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The peer's memory, as one of its {@link RegionDescriptor descriptors} describes it, reached through the connection
 * the descriptor came on ({@link Connection#remoteRegion}): one-sided reads, writes and 64-bit atomics that the
 * peer's adapter serves without the peer's CPU.
 *
 * <p>Each operation is a cold {@link Mono}: every subscription runs the operation once, on the connection's event
 * loop, and completes when the adapter reports it complete; the signal comes on the loop. The connection posts its
 * one-sided operations in the order they are subscribed and the adapter completes them in that order. An operation
 * the descriptor already rules out (a range outside the region, a right it does not grant, a misaligned atomic), or
 * that names a region the peer announced closed (its descriptor is stale), fails with
 * {@link RdmaRemoteAccessException} before anything is posted, and the connection carries on. One the peer's adapter
 * refuses (the region was closed while the operation was on its way, or the descriptor was forged) fails with
 * {@link RdmaRemoteAccessException.Reason#REFUSED_BY_PEER}, and ends the connection, as a remote access error ends a
 * reliable connection.
 *
 * <p>Up to 4,096 operations may wait on a connection at once; a further one fails at once with
 * {@link RdmaStreamsBusyException}. {@link #execute} takes any number of operations with back-pressure instead.
 */
public final class RemoteRegion {

    private final DefaultConnection connection;
    private final RegionDescriptor descriptor;
    private final int rights;
    private final PeerRegion state;

    RemoteRegion(final DefaultConnection connection, final RegionDescriptor descriptor, final PeerRegion state) {
        this.connection = connection;
        this.descriptor = descriptor;
        this.rights = RegionAccess.flags(descriptor.rights());
        this.state = state;
    }

    /** What this side knows of one region of the peer's, shared by every {@link RemoteRegion} of its generation. */
    static final class PeerRegion {
        /** The peer announced the region closed: its descriptors are stale. */
        volatile boolean closed;
    }

    /** @return true once the peer announced the region closed: every operation on it is refused before posting */
    public boolean isClosedByPeer() {
        return state.closed;
    }

    /** @return the descriptor the region was made from */
    public RegionDescriptor descriptor() {
        return descriptor;
    }

    /** @return the region's length in bytes */
    public long length() {
        return descriptor.length();
    }

    /**
     * Writes {@code length} bytes of {@code source}, from {@code sourceOffset}, to the region at {@code offset}. Once it
     * completed, the bytes are in the peer's memory; writes complete in the order they were subscribed.
     *
     * @return completes when the adapter reported the write complete
     */
    public Mono<Void> write(final long offset, final LocalRegion source, final long sourceOffset, final int length) {
        return OneSidedCall.mono(this, RemoteOperation.write(offset, source, sourceOffset, length), false);
    }

    /**
     * Reads {@code length} bytes of the region at {@code offset} into {@code target} at {@code targetOffset}.
     *
     * @return completes when the bytes are in {@code target}
     */
    public Mono<Void> read(final long offset, final LocalRegion target, final long targetOffset, final int length) {
        return OneSidedCall.mono(this, RemoteOperation.read(offset, target, targetOffset, length), false);
    }

    /**
     * Adds {@code delta} to the 64-bit word at {@code offset} (8-byte aligned), atomically with every other atomic on
     * the word through the peer's adapter.
     *
     * @return the word's value before the addition
     */
    public Mono<Long> fetchAndAdd(final long offset, final long delta) {
        return OneSidedCall.mono(this, RemoteOperation.fetchAndAdd(offset, delta), true);
    }

    /**
     * Sets the 64-bit word at {@code offset} (8-byte aligned) to {@code desired} if it holds {@code expected}, atomically
     * with every other atomic on the word through the peer's adapter.
     *
     * @return the word's value before: {@code expected} if it swapped
     */
    public Mono<Long> compareAndSwap(final long offset, final long expected, final long desired) {
        return OneSidedCall.mono(this, RemoteOperation.compareAndSwap(offset, expected, desired), true);
    }

    /**
     * Runs many operations, at most {@link Connection#maxOneSidedInFlight()} in flight at once: the rest stay
     * unrequested upstream (back-pressure), never queued here. The results come in the order of the operations: an
     * atomic's value before, a read's or write's length. The first operation that fails ends the flux with its error;
     * the ones in flight still complete.
     *
     * @return the results, in order
     */
    public Flux<Long> execute(final Publisher<RemoteOperation> operations) {
        Objects.requireNonNull(operations, "operations");
        return Flux.from(operations).flatMapSequential(operation -> OneSidedCall.<Long>mono(this, operation, true),
            connection.maxOneSidedInFlight(), 1);
    }

    /** @return the connection the region is reached through */
    DefaultConnection connection() {
        return connection;
    }

    /** @return why {@code operation} cannot run on this region, or null: checked as the peer's adapter would */
    Throwable check(final RemoteOperation operation) {
        final Throwable closed = closedRefusal(operation);
        if (closed != null) {
            return closed;
        }
        final long offset = operation.offset;
        final int length = operation.length;
        if (length <= 0 || offset < 0 || offset > descriptor.length() - length) {
            return new RdmaRemoteAccessException(RdmaRemoteAccessException.Reason.OUT_OF_BOUNDS, "the "
                + operation.name() + " of " + length + " bytes at offset " + offset + " is outside the peer's region "
                + "of " + descriptor.length() + " bytes (generation " + descriptor.generation() + ")"
                + (length <= 0 ? ": the length must be positive" : ""));
        }
        final int required = switch (operation.name()) {
            case "READ" -> RegionAccess.REMOTE_READ.flag();
            case "WRITE" -> RegionAccess.REMOTE_WRITE.flag();
            default -> RegionAccess.REMOTE_ATOMIC.flag();
        };
        if ((rights & required) == 0) {
            return new RdmaRemoteAccessException(RdmaRemoteAccessException.Reason.NOT_PERMITTED, "the peer's region "
                + "(generation " + descriptor.generation() + ") grants " + descriptor.rights() + ", not the "
                + RegionAccess.of(required) + " a " + operation.name() + " needs");
        }
        if (operation.isAtomic() && !connection.supportsAtomics()) {
            return new UnsupportedOperationException("the " + operation.name() + " cannot run: the connection's "
                + "device has no atomics (its atomic capability is none)");
        }
        if (operation.isAtomic() && ((descriptor.address() + offset) & (Long.BYTES - 1)) != 0) {
            return new RdmaRemoteAccessException(RdmaRemoteAccessException.Reason.MISALIGNED, "the "
                + operation.name() + " at offset " + offset + " names a word that is not 8-byte aligned (address 0x"
                + Long.toHexString(descriptor.address() + offset) + "): atomics work on aligned 64-bit words only");
        }
        final LocalRegion local = operation.local;
        if (local != null) {
            if (local.connection() != connection) {
                return new IllegalArgumentException("the local region of the " + operation.name() + " is registered "
                    + "on another connection (" + local.connection().peer() + "): register it on the connection of "
                    + "the remote region (" + connection.peer() + ")");
            }
            if (operation.localOffset < 0 || operation.localOffset > local.length() - length) {
                return new IllegalArgumentException("the " + operation.name() + "'s " + length + " bytes at offset "
                    + operation.localOffset + " are outside the local region of " + local.length() + " bytes");
            }
        }
        return null;
    }

    /** @return the refusal of {@code operation} if the peer announced the region closed, or null */
    Throwable closedRefusal(final RemoteOperation operation) {
        if (!state.closed) {
            return null;
        }
        return new RdmaRemoteAccessException(RdmaRemoteAccessException.Reason.REVOKED, "the " + operation.name()
            + " was not posted: the peer closed its region of generation " + descriptor.generation() + ", so the "
            + "descriptor is stale (ask the peer for a current one)");
    }

    /** @return the error of an operation the adapter failed, or that the connection's end cut short */
    Throwable failure(final RemoteOperation operation, final int status, final String reason) {
        if (status == OneSidedOperation.CONNECTION_ENDED) {
            return connection.connectionFailed(reason);
        }
        final String what = "the " + operation.name() + " of " + operation.length + " bytes at offset "
            + operation.offset + " of the peer's region (generation " + descriptor.generation() + ", key 0x"
            + Integer.toHexString(descriptor.key()) + ")";
        if (status == CompletionStatus.REM_ACCESS_ERR || status == CompletionStatus.REM_INV_REQ_ERR
            || status == CompletionStatus.REM_OP_ERR) {
            return new RdmaRemoteAccessException(RdmaRemoteAccessException.Reason.REFUSED_BY_PEER, "the peer's adapter "
                + "refused " + what + ": " + reason + ". The region was closed, or the descriptor does not describe it; "
                + "the connection ended with it, as a reliable connection's queue pair stops at a remote error");
        }
        return new RdmaConnectionException(what + " failed: " + reason + "; the connection ended with it");
    }

    @Override
    public String toString() {
        return "RemoteRegion{" + descriptor + " via " + connection.peer() + '}';
    }
}
