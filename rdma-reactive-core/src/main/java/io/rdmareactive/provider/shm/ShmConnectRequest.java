package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/** A connect request that arrived at a {@link ShmListener}, answered once. */
final class ShmConnectRequest implements ConnectRequest {

    private final ShmDevice device;
    private final CmChannel channel;
    private final String peerDeviceId;
    private final int peerQpNumber;
    private final long peerPid;
    private final byte[] privateData;
    private final AtomicBoolean answered = new AtomicBoolean();

    ShmConnectRequest(final ShmDevice device, final CmChannel channel, final String peerDeviceId,
                      final int peerQpNumber, final long peerPid, final byte[] privateData) {
        this.device = device;
        this.channel = channel;
        this.peerDeviceId = peerDeviceId;
        this.peerQpNumber = peerQpNumber;
        this.peerPid = peerPid;
        this.privateData = privateData;
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public String peerDescription() {
        return "process " + peerPid + ", device " + peerDeviceId + ", queue pair " + peerQpNumber;
    }

    @Override
    public byte[] peerEndpoint() {
        return ShmQueuePair.endpoint(peerDeviceId, peerQpNumber);
    }

    @Override
    public QueuePair accept(final QueuePairOptions options,
                            final java.util.function.Function<? super QueuePair, byte[]> answerOf) {
        answerOnce();
        final ShmQueuePair queuePair = device.createQueuePair(options);
        try {
            final PeerView peer = PeerView.attach(device.directory(), peerDeviceId, peerQpNumber);
            queuePair.connected(peer, channel, peerDescription(), privateData);
            options.prepare(queuePair);
            final byte[] answer = answerOf.apply(queuePair);
            device.checkPrivateData(answer);
            final ByteBuffer payload = ByteBuffer.allocate(256 + answer.length);
            CmChannel.putString(payload, device.id());
            payload.putInt(queuePair.number());
            CmChannel.putBytes(payload, answer);
            channel.send(CmChannel.ACCEPT, payload.flip());
            device.monitor().watch(queuePair);
            return queuePair;
        } catch (final IllegalArgumentException ex) {
            queuePair.close();
            channel.close();
            throw ex; // the answer was too long
        } catch (final IOException | RuntimeException ex) {
            queuePair.close();
            channel.close();
            throw new RdmaException("cannot accept the connection from " + peerDescription() + ": " + ex.getMessage(),
                ex);
        }
    }

    @Override
    public void reject(final byte[] answer) {
        device.checkRejectPrivateData(answer); // before answering: a rejected argument leaves the request to answer
        answerOnce();
        ShmListener.reject(channel, answer, "rejected by the listener");
    }

    private void answerOnce() {
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("this connect request from " + peerDescription()
                + " was already answered");
        }
    }
}
