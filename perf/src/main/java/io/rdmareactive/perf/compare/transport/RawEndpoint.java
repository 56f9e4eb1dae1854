package io.rdmareactive.perf.compare.transport;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.nio.ByteBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * One side of one raw stream at the provider SPI: a registered region of {@code slots} message slots (the peer
 * RDMA-WRITEs into them) plus a control word, a completion queue, a queue pair, and reusable work requests. Every
 * message is one RDMA WRITE WITH IMMEDIATE whose immediate is its sequence number; its slot is the sequence modulo
 * the slot count. Zero-length receives, posted ahead and reposted in batches, absorb the immediates.
 */
final class RawEndpoint implements CompletionHandler, AutoCloseable {

    static final int RECEIVE_DEPTH = 1024;
    static final int SEND_DEPTH = 512;
    private static final int REPOST_BATCH = 64;
    private static final int SIGNAL_EVERY = 32;
    private static final int CONTROL = 64;

    final int slots;
    final int slotSize;
    final MemoryRegion region;
    final AtomicBuffer buffer;
    private final CompletionQueue completions;
    private final int[] arrivals = new int[RECEIVE_DEPTH];
    private int arrivalHead;
    private int arrivalTail;
    private QueuePair queuePair;
    private long remoteAddress;
    private int remoteKey;
    private SendWorkRequest send;
    private ReceiveWorkRequest receive;
    private long nextReceiveId;
    private int receivesToRepost;
    private long posted;
    /** Messages the client side has written (its next sequence number). */
    long sent;
    private long completed;
    private int failedStatus = -1;

    RawEndpoint(final RdmaDevice device, final int slotSize) {
        this.slotSize = slotSize;
        this.slots = Integer.highestOneBit(Math.clamp((8 << 20) / slotSize, 4, 256));
        this.region = device.allocateRegion(roundUp((long) slots * slotSize + CONTROL),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        this.buffer = region.buffer();
        this.completions = device.createCompletionQueue(RECEIVE_DEPTH + SEND_DEPTH);
    }

    private static long roundUp(final long length) {
        return (length + 4095) & -4096L;
    }

    QueuePairOptions options() {
        return QueuePairOptions.builder(completions, completions).receiveDepth(RECEIVE_DEPTH).sendDepth(SEND_DEPTH)
            .rnrRetries(7).signalAll(false).build();
    }

    /** @return where the peer may write, for the connection's private data */
    byte[] info() {
        return ByteBuffer.allocate(16).putLong(region.address()).putInt(region.rkey()).putInt(slots).array();
    }

    void connected(final QueuePair queuePair, final byte[] peerInfo) {
        final ByteBuffer info = ByteBuffer.wrap(peerInfo);
        this.queuePair = queuePair;
        this.remoteAddress = info.getLong();
        this.remoteKey = info.getInt();
        if (info.getInt() != slots) {
            throw new IllegalStateException("the peer has a different slot count");
        }
        this.send = queuePair.newSendRequest(1);
        this.receive = queuePair.newReceiveRequest(REPOST_BATCH);
        postReceives(RECEIVE_DEPTH);
    }

    int slotOffset(final int sequence) {
        return (sequence & (slots - 1)) * slotSize;
    }

    int controlOffset() {
        return slots * slotSize;
    }

    /** Polls the completion queue: arrivals are queued for {@link #nextArrival()}, send completions counted. */
    int poll() {
        final int polled = completions.poll(this, 32);
        if (polled == CompletionQueue.OVERRUN) {
            throw new IllegalStateException("the completion queue overran");
        }
        if (failedStatus >= 0) {
            throw new IllegalStateException("a work request failed: " + CompletionStatus.name(failedStatus) + " ("
                + CompletionStatus.explain(failedStatus) + "); " + queuePair.errorReason());
        }
        if (receivesToRepost >= REPOST_BATCH) {
            postReceives(receivesToRepost);
            receivesToRepost = 0;
        }
        return polled;
    }

    boolean hasArrival() {
        return arrivalHead != arrivalTail;
    }

    /** @return the immediate of the oldest arrival not yet taken (call only when {@link #hasArrival()}) */
    int nextArrival() {
        final int immediate = arrivals[arrivalHead];
        arrivalHead = (arrivalHead + 1) & (RECEIVE_DEPTH - 1);
        return immediate;
    }

    /** @return whether the send queue has room for one more write */
    boolean canWrite() {
        return posted - completed < SEND_DEPTH - SIGNAL_EVERY;
    }

    /** RDMA-WRITEs {@code length} bytes at {@code offset} to the same offset of the peer's region, with immediate. */
    void write(final int offset, final int length, final int immediate) {
        final long id = ++posted;
        final boolean signal = id % SIGNAL_EVERY == 0;
        send.clear().add(id, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, signal ? SendFlags.SIGNALED : 0)
            .sge(region.address() + offset, length, region.lkey())
            .remote(remoteAddress + offset, remoteKey)
            .immediate(immediate);
        check(queuePair.postSend(send), "post send");
    }

    @Override
    public void onCompletion(final Completion completion) {
        if (!completion.isSuccess()) {
            failedStatus = completion.status();
        } else if (completion.isReceive()) {
            arrivals[arrivalTail] = completion.immediate();
            arrivalTail = (arrivalTail + 1) & (RECEIVE_DEPTH - 1);
            receivesToRepost++;
        } else {
            completed = completion.wrId(); // a signalled write completes every unsignalled one before it
        }
    }

    private void postReceives(final int count) {
        for (int done = 0; done < count; done += REPOST_BATCH) {
            receive.clear();
            for (int i = 0; i < Math.min(REPOST_BATCH, count - done); i++) {
                receive.add(nextReceiveId++);
            }
            check(queuePair.postReceive(receive), "post receives");
        }
    }

    private static void check(final int status, final String what) {
        if (status != PostStatus.OK) {
            throw new IllegalStateException(what + " failed: " + PostStatus.name(status));
        }
    }

    void disconnect() {
        if (queuePair != null) {
            queuePair.disconnect();
        }
    }

    @Override
    public void close() {
        if (queuePair != null) {
            queuePair.close();
        }
        completions.close();
        region.close();
    }
}
