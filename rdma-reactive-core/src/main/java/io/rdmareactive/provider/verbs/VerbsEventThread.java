package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The device's connection-manager thread ({@code rdma-verbs-cm-<device>}): waits in {@code poll(2)} on the device's
 * event channel and on the adapter's asynchronous event file, copies each connection-manager event out, acknowledges
 * it at once (so that destroying an identifier never waits for this thread) and hands the copy to the device;
 * asynchronous events that put a queue pair in the error state go to that queue pair; completion events (a completion
 * queue that a sleeping loop armed, see {@link VerbsCompletionQueue#armWakeup}) are acknowledged at once and wake that
 * loop. The three files are non-blocking;
 * the poll wakes up every 100 ms to notice that the device is closing. It is the only thread that reads events, and
 * it never runs application code.
 */
final class VerbsEventThread extends Thread {

    private static final short POLLIN = 1;
    private static final int POLL_MILLIS = 100;

    private final VerbsLibrary lib;
    private final VerbsDevice device;
    private final MemorySegment channel;
    private final int channelFd;
    private final MemorySegment context;
    private final int asyncFd;
    /** The completion channel and its file, or null and -1 (poll ignores a negative file). */
    private final MemorySegment completionChannel;
    private final int completionFd;
    private volatile boolean running = true;

    VerbsEventThread(final VerbsLibrary lib, final VerbsDevice device, final MemorySegment channel,
                     final int channelFd, final MemorySegment context, final int asyncFd,
                     final MemorySegment completionChannel, final int completionFd) {
        super("rdma-verbs-cm-" + device.name());
        setDaemon(true);
        this.lib = lib;
        this.device = device;
        this.channel = channel;
        this.channelFd = channelFd;
        this.context = context;
        this.asyncFd = asyncFd;
        this.completionChannel = completionChannel;
        this.completionFd = completionFd;
    }

    /** Stops the thread and waits for it. */
    void shutdown() {
        running = false;
        if (Thread.currentThread() != this) {
            try {
                join(10_000);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment fds = arena.allocate(VerbsLayouts.POLLFD, 3);
            final MemorySegment capture = NativeCall.captureSegment(arena);
            final MemorySegment eventSlot = arena.allocate(ADDRESS);
            final MemorySegment asyncEvent = arena.allocate(VerbsLayouts.IBV_ASYNC_EVENT);
            final MemorySegment cqSlot = arena.allocate(ADDRESS);
            final MemorySegment cqContextSlot = arena.allocate(ADDRESS);
            final long stride = VerbsLayouts.POLLFD.byteSize();
            while (running) {
                watch(fds, 0, channelFd);
                watch(fds, stride, asyncFd);
                watch(fds, 2 * stride, completionFd);
                final int ready = VerbsLibrary.integer(lib.poll, capture, fds, 3L, POLL_MILLIS);
                device.onEventThreadTick();
                if (ready <= 0) {
                    continue;
                }
                if (fds.get(JAVA_SHORT, 2 * stride + VerbsLayouts.POLLFD_REVENTS) != 0) { // first: a loop sleeps
                    drainCompletionEvents(capture, cqSlot, cqContextSlot);
                }
                if (fds.get(JAVA_SHORT, VerbsLayouts.POLLFD_REVENTS) != 0) {
                    drainConnectionEvents(capture, eventSlot);
                }
                if (fds.get(JAVA_SHORT, stride + VerbsLayouts.POLLFD_REVENTS) != 0) {
                    drainAsyncEvents(capture, asyncEvent);
                }
            }
        } catch (final RuntimeException | Error ex) {
            device.onEventThreadFailure(ex);
        }
    }

    private static void watch(final MemorySegment fds, final long offset, final int fd) {
        fds.set(JAVA_INT, offset + VerbsLayouts.POLLFD_FD, fd);
        fds.set(JAVA_SHORT, offset + VerbsLayouts.POLLFD_EVENTS, POLLIN);
        fds.set(JAVA_SHORT, offset + VerbsLayouts.POLLFD_REVENTS, (short) 0);
    }

    /** Reads each completion event, acknowledges it at once (so destroying its queue never waits), and wakes. */
    private void drainCompletionEvents(final MemorySegment capture, final MemorySegment cqSlot,
                                       final MemorySegment cqContextSlot) {
        while (running) {
            if (VerbsLibrary.integer(lib.getCqEvent, capture, completionChannel, cqSlot, cqContextSlot) != 0) {
                return; // EAGAIN: nothing more for now
            }
            final MemorySegment cq = cqSlot.get(ADDRESS, 0);
            VerbsLibrary.plain(lib.ackCqEvents, cq, 1);
            device.onCompletionEvent(cq.address());
        }
    }

    private void drainConnectionEvents(final MemorySegment capture, final MemorySegment eventSlot) {
        while (running) {
            if (VerbsLibrary.integer(lib.getCmEvent, capture, channel, eventSlot) != 0) {
                return; // EAGAIN: nothing more for now
            }
            final MemorySegment event = eventSlot.get(ADDRESS, 0).reinterpret(VerbsLayouts.RDMA_CM_EVENT.byteSize());
            final CmEvent copy = copy(event);
            VerbsLibrary.plain(lib.ackCmEvent, event);
            device.connections().onConnectionEvent(copy);
        }
    }

    private static CmEvent copy(final MemorySegment event) {
        final int type = event.get(JAVA_INT, VerbsLayouts.CM_EVENT_TYPE);
        final int status = event.get(JAVA_INT, VerbsLayouts.CM_EVENT_STATUS);
        final MemorySegment id = event.get(ADDRESS, VerbsLayouts.CM_EVENT_ID);
        final MemorySegment listenId = event.get(ADDRESS, VerbsLayouts.CM_EVENT_LISTEN_ID);
        byte[] data = new byte[0];
        if (type == CmEvent.CONNECT_REQUEST || type == CmEvent.ESTABLISHED || type == CmEvent.REJECTED
            || type == CmEvent.CONNECT_RESPONSE) {
            final MemorySegment pointer = event.get(ADDRESS, VerbsLayouts.CM_EVENT_PRIVATE_DATA);
            final int length = Byte.toUnsignedInt(event.get(JAVA_BYTE, VerbsLayouts.CM_EVENT_PRIVATE_DATA_LEN));
            if (!pointer.equals(MemorySegment.NULL) && length > 0) {
                data = pointer.reinterpret(length).toArray(JAVA_BYTE);
            }
        }
        String peer = null;
        if (type == CmEvent.CONNECT_REQUEST && !id.equals(MemorySegment.NULL)) {
            final MemorySegment cmId = id.reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize());
            peer = VerbsAddress.describe(cmId.asSlice(VerbsLayouts.CM_ID_DST_ADDR, VerbsLayouts.SOCKADDR.byteSize()));
        }
        final int peerQpNumber = type == CmEvent.CONNECT_REQUEST || type == CmEvent.ESTABLISHED
            || type == CmEvent.CONNECT_RESPONSE ? event.get(JAVA_INT, VerbsLayouts.CM_EVENT_QP_NUM) : 0;
        return new CmEvent(type, status, id.address(), listenId.address(), data, peer, peerQpNumber);
    }

    private void drainAsyncEvents(final MemorySegment capture, final MemorySegment asyncEvent) {
        while (running) {
            if (VerbsLibrary.integer(lib.getAsyncEvent, capture, context, asyncEvent) != 0) {
                return;
            }
            final long element = asyncEvent.get(ADDRESS, VerbsLayouts.ASYNC_EVENT_ELEMENT).address();
            final int type = asyncEvent.get(JAVA_INT, VerbsLayouts.ASYNC_EVENT_TYPE);
            VerbsLibrary.plain(lib.ackAsyncEvent, asyncEvent);
            VerbsQueuePair.onAsyncEvent(type, element);
        }
    }
}
