package io.rdmareactive.perf.compare;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.Header;
import io.rdmareactive.perf.compare.transport.Idle;
import java.net.DatagramSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * A peer-kill peer over Aeron with Aeron's default timeouts. Over IPC every peer is a client of the comparison's own
 * media driver (one driver per machine, as IPC needs) and subscribes to a stream id of its own; over UDP every peer
 * runs an embedded driver of its own (SHARED threading mode, the run's idle strategy), as a separate Aeron node
 * would, and subscribes at a port of its own on 127.0.0.1. One thread polls the subscription. A failure is what
 * Aeron says: an image of the subscription going unavailable, an offer answering not connected or closed.
 */
final class AeronPeerNode implements PeerNode {

    private static final int BASE_STREAM_ID = 7001;

    private final boolean udp;
    private final PeerLedger ledger;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Subscription subscription;
    private final String address;
    private final ExclusivePublication[] publications;
    private final boolean[] failed;
    private final Map<Integer, Integer> sources = new ConcurrentHashMap<>();
    private final Thread poller;
    private volatile boolean running = true;

    /**
     * @param udp       UDP with a driver of its own, else IPC through the driver in {@code directory}
     * @param directory the comparison's driver directory (IPC), or where this peer's driver goes (UDP)
     */
    AeronPeerNode(final boolean udp, final Path directory, final int self, final int peers, final Idle idle,
                  final PeerLedger ledger) throws Exception {
        this.udp = udp;
        this.ledger = ledger;
        this.publications = new ExclusivePublication[peers];
        this.failed = new boolean[peers];
        String aeronDirectory = directory.toString();
        if (udp) {
            aeronDirectory = directory.resolve("aeron-peer-" + ProcessHandle.current().pid()).toString();
            this.driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(aeronDirectory)
                .threadingMode(ThreadingMode.SHARED).sharedIdleStrategy(idle.newStrategy())
                .termBufferSparseFile(false).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        } else {
            this.driver = null;
        }
        this.aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectory));
        if (udp) {
            try (DatagramSocket socket = new DatagramSocket(0)) {
                this.address = String.valueOf(socket.getLocalPort());
            }
        } else {
            this.address = String.valueOf(BASE_STREAM_ID + self);
        }
        this.subscription = aeron.addSubscription(channel(address), streamId(address), null, this::unavailable);
        final FragmentAssembler assembler = new FragmentAssembler(this::onFragment);
        final IdleStrategy polling = idle.newStrategy();
        this.poller = Thread.ofPlatform().daemon().name("peer-aeron-poller").start(() -> {
            while (running) {
                polling.idle(subscription.poll(assembler, 16));
            }
        });
    }

    private String channel(final String where) {
        return udp ? "aeron:udp?endpoint=127.0.0.1:" + where : "aeron:ipc";
    }

    private int streamId(final String where) {
        return udp ? BASE_STREAM_ID : Integer.parseInt(where);
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header) {
        if (length >= PeerLedger.SOURCE_OFFSET + Integer.BYTES) {
            sources.putIfAbsent(header.sessionId(), buffer.getInt(offset + PeerLedger.SOURCE_OFFSET));
        }
        ledger.onMessage(buffer, offset, length);
    }

    private void unavailable(final Image image) {
        final Integer source = sources.get(image.sessionId());
        if (source != null) {
            ledger.failed(source, "image unavailable");
        }
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public void connect(final int peer, final String where) throws InterruptedException {
        final ExclusivePublication publication = aeron.addExclusivePublication(channel(where), streamId(where));
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!publication.isConnected()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no subscriber at " + where + " within 30 s");
            }
            Thread.sleep(1);
        }
        publications[peer] = publication;
    }

    @Override
    public boolean offer(final int peer, final DirectBuffer buffer, final int length) {
        if (failed[peer]) {
            return false;
        }
        final long result = publications[peer].offer(buffer, 0, length);
        if (result > 0) {
            return true;
        }
        if (result == Publication.NOT_CONNECTED || result == Publication.CLOSED
            || result == Publication.MAX_POSITION_EXCEEDED) {
            failed[peer] = true;
            ledger.failed(peer, "offer: " + Publication.errorString(result));
        }
        return false;
    }

    @Override
    public void close() {
        running = false;
        try {
            poller.join(10_000);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        CloseHelper.closeAll(publications);
        CloseHelper.closeAll(subscription, aeron, driver);
    }
}
