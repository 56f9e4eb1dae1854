package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A peer's connect request: a new connection-manager identifier, and the peer's private data. Answered once: accept
 * creates the queue pair on that identifier and waits for the connection to be established; reject sends the reason
 * and destroys the identifier.
 */
final class VerbsConnectRequest implements ConnectRequest {

    private final VerbsDevice device;
    private final long cmId;
    private final byte[] privateData;
    private final String peer;
    private final int peerQpNumber;
    private final byte[] peerEndpoint;
    private final AtomicBoolean answered = new AtomicBoolean();

    VerbsConnectRequest(final VerbsDevice device, final long cmId, final byte[] privateData, final String peer,
                        final int peerQpNumber, final byte[] peerEndpoint) {
        this.device = device;
        this.cmId = cmId;
        this.privateData = privateData;
        this.peer = peer;
        this.peerQpNumber = peerQpNumber;
        this.peerEndpoint = peerEndpoint;
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public String peerDescription() {
        return peer;
    }

    @Override
    public byte[] peerEndpoint() {
        return peerEndpoint.clone();
    }

    @Override
    public QueuePair accept(final QueuePairOptions options,
                            final java.util.function.Function<? super QueuePair, byte[]> answerOf) {
        answer();
        return device.connections().accept(cmId, options, answerOf, privateData, peer, peerQpNumber);
    }

    @Override
    public void reject(final byte[] data) {
        final byte[] framed = PrivateData.frame(data, PrivateData.REJECT_LIMIT, "a reject");
        answer();
        device.connections().reject(cmId, framed);
    }

    private void answer() {
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("this connect request from " + peer + " was answered already");
        }
    }
}
