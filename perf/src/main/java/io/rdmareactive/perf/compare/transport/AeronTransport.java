package io.rdmareactive.perf.compare.transport;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * Aeron IPC or UDP on loopback, with an embedded media driver in the SHARED threading mode (one driver thread for
 * conductor, sender and receiver) using the run's idle strategy. Each stream is a publication one way and, for
 * echoes, another the other way; one server thread polls every stream's subscription.
 */
public final class AeronTransport implements Transport {

    private static final int FRAGMENTS = 16;
    private static final int REPLY_STREAM_OFFSET = 500_000;

    private final boolean udp;
    private final Idle idle;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Path aeronDirectory;
    private int nextStreamId = 1001;

    /**
     * Launches the driver, in a directory of its own under {@code directory}.
     *
     * @param udp {@code true} for UDP on 127.0.0.1, {@code false} for IPC
     */
    public AeronTransport(final boolean udp, final Idle idle, final Path directory) {
        this.udp = udp;
        this.idle = idle;
        this.aeronDirectory = directory.resolve(udp ? "aeron-udp" : "aeron-ipc");
        final String aeronDirectory = this.aeronDirectory.toString();
        this.driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDirectory)
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(idle.newStrategy())
            // Aeron's default, pre-allocated term buffers: sparse ones cost a page fault per new page, which on this
            // 2-core VM made IPC at 4 KiB 50 times slower (about 40 us per page)
            .termBufferSparseFile(false)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        this.aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectory));
    }

    @Override
    public String name() {
        return udp ? "aeron-udp" : "aeron-ipc";
    }

    /** @return the embedded media driver's directory, for clients in other processes (the peer-kill peers) */
    public Path directory() {
        return aeronDirectory;
    }

    /** @return the client of the embedded driver, for workloads that make publications of their own (all-reduce) */
    public Aeron aeron() {
        return aeron;
    }

    /** @return the run's idle strategy */
    public Idle idle() {
        return idle;
    }

    /** @return whether this is Aeron UDP (else IPC) */
    public boolean udp() {
        return udp;
    }

    @Override
    public String setup() {
        return "Aeron " + (udp ? "UDP on 127.0.0.1" : "IPC") + ", embedded MediaDriver in SHARED threading mode "
            + "(one driver thread) with the " + idle + " idle strategy; Publication.offer on the client thread, one "
            + "server thread polling the subscriptions (" + idle + ")";
    }

    @Override
    public Session open(final SessionSpec spec) throws IOException {
        final String requests = channel();
        final String replies = spec.echo() ? channel() : null;
        final List<Publication> requestPublications = new ArrayList<>();
        final List<Subscription> requestSubscriptions = new ArrayList<>();
        final List<Publication> replyPublications = new ArrayList<>();
        final List<Subscription> replySubscriptions = new ArrayList<>();
        for (int stream = 0; stream < spec.streams(); stream++) {
            final int streamId = nextStreamId++;
            requestSubscriptions.add(aeron.addSubscription(requests, streamId));
            requestPublications.add(aeron.addExclusivePublication(requests, streamId));
            if (spec.echo()) {
                // a stream id of its own: over IPC both directions share the channel "aeron:ipc"
                replySubscriptions.add(aeron.addSubscription(replies, streamId + REPLY_STREAM_OFFSET));
                replyPublications.add(aeron.addExclusivePublication(replies, streamId + REPLY_STREAM_OFFSET));
            }
        }
        awaitConnected(requestPublications);
        awaitConnected(replyPublications);
        return new AeronSession(spec, requestPublications, requestSubscriptions, replyPublications,
            replySubscriptions);
    }

    private String channel() throws IOException {
        if (!udp) {
            return "aeron:ipc";
        }
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "aeron:udp?endpoint=127.0.0.1:" + socket.getLocalPort();
        }
    }

    private void awaitConnected(final List<Publication> publications) {
        final IdleStrategy waiting = Idle.WAITING.newStrategy();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        for (final Publication publication : publications) {
            while (!publication.isConnected()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name() + ": " + publication.channel() + " stream "
                        + publication.streamId() + " did not connect within 10 s");
                }
                waiting.idle();
            }
        }
    }

    @Override
    public void close() {
        CloseHelper.closeAll(aeron, driver);
    }

    private final class AeronSession implements Session {

        private final List<Publication> requests;
        private final List<Subscription> requestSubscriptions;
        private final List<Publication> replies;
        private final List<Subscription> replySubscriptions;
        private final List<Link> links = new ArrayList<>();
        private final PollingServer server;

        AeronSession(final SessionSpec spec, final List<Publication> requests,
                     final List<Subscription> requestSubscriptions, final List<Publication> replies,
                     final List<Subscription> replySubscriptions) {
            this.requests = requests;
            this.requestSubscriptions = requestSubscriptions;
            this.replies = replies;
            this.replySubscriptions = replySubscriptions;
            final int streams = spec.streams();
            final FragmentAssembler[] serverAssemblers = new FragmentAssembler[streams];
            final IdleStrategy echoRetry = idle.newStrategy();
            for (int stream = 0; stream < streams; stream++) {
                final int s = stream;
                final MessageHandler handler = spec.echo()
                    ? (buffer, offset, length) -> echo(replies.get(s), buffer, offset, length, echoRetry)
                    : spec.consumers().apply(stream);
                serverAssemblers[stream] = new FragmentAssembler(
                    (buffer, offset, length, header) -> handler.onMessage(buffer, offset, length));
                final FragmentAssembler clientAssembler = spec.echo() ? new FragmentAssembler(
                    (buffer, offset, length, header) -> spec.replies().onMessage(buffer, offset, length)) : null;
                final Publication publication = requests.get(stream);
                final Subscription replySubscription = spec.echo() ? replySubscriptions.get(stream) : null;
                links.add(new Link() {
                    @Override
                    public boolean offer(final DirectBuffer buffer, final int offset, final int length) {
                        final long result = publication.offer(buffer, offset, length);
                        if (result > 0) {
                            return true;
                        }
                        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                            throw new IllegalStateException(name() + ": offer failed: "
                                + Publication.errorString(result));
                        }
                        server.check();
                        return false;
                    }

                    @Override
                    public int poll() {
                        return replySubscription == null ? 0 : replySubscription.poll(clientAssembler, FRAGMENTS);
                    }
                });
            }
            this.server = new PollingServer(name() + "-server", idle.newStrategy(), () -> {
                int work = 0;
                for (int s = 0; s < streams; s++) {
                    work += requestSubscriptions.get(s).poll(serverAssemblers[s], FRAGMENTS);
                }
                return work;
            });
        }

        private static void echo(final Publication reply, final DirectBuffer buffer, final int offset,
                                 final int length, final IdleStrategy retry) {
            retry.reset();
            long result;
            while ((result = reply.offer(buffer, offset, length)) < 0) {
                if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                    throw new IllegalStateException("echo failed: " + Publication.errorString(result));
                }
                retry.idle();
            }
        }

        @Override
        public Link link(final int stream) {
            return links.get(stream);
        }

        @Override
        public void close() {
            server.close();
            CloseHelper.closeAll(requests);
            CloseHelper.closeAll(replies);
            CloseHelper.closeAll(requestSubscriptions);
            CloseHelper.closeAll(replySubscriptions);
        }
    }
}
