package io.rdmareactive.perf.compare.transport;

import java.util.Objects;

/**
 * Where the verbs transports listen and which RDMA device each side uses: one device (the default one, as the
 * process's runtime picks it), or two "nodes" that a link joins, node A (the server device, owning the IP of
 * {@code address}) and node B (the client device, owning {@code clientHost} if given), as in the Soft-RoCE guest's
 * two-node set-up.
 *
 * <p>With two devices, a listener is on the device that owns its IP: node B's at {@code clientHost}, every other one
 * on node A. A connection is made from the device its route leaves through, the other node's: to node B's IP from
 * the server device, to any other (node A's) from the client device. Every connection so crosses the link, whichever
 * side of it the caller thinks of itself as on (rdma_cm refuses a connection whose route leaves through another
 * device than the one asked for).
 *
 * @param address      node A's {@code IP:PORT}: where servers listen; every session takes the next port
 * @param serverDevice node A's device, or null for one device
 * @param clientDevice node B's device, or null for one device
 * @param clientHost   node B's IP, where a workload whose connecting side listens too puts those listeners (all-reduce
 *                     ranks, peer-kill peers), or null: every listener on node A
 */
public record VerbsNodes(String address, String serverDevice, String clientDevice, String clientHost) {

    public VerbsNodes {
        Objects.requireNonNull(address, "address");
        if ((serverDevice == null) != (clientDevice == null)) {
            throw new IllegalArgumentException("the server and the client device are named together, or neither");
        }
        if (clientHost != null && serverDevice == null) {
            throw new IllegalArgumentException("node B's address needs the two devices named");
        }
    }

    /** @return the verbs transports on one device, the default one, listening at {@code address} */
    public static VerbsNodes oneDevice(final String address) {
        return new VerbsNodes(address, null, null, null);
    }

    /** @return whether two devices were named */
    public boolean twoDevices() {
        return serverDevice != null;
    }

    /** @return a fresh address on node A (the next port of {@code address}) */
    public String nextServerAddress() {
        return VerbsAddresses.next(address);
    }

    /**
     * @return a fresh address on node B ({@code clientHost}, the next port of {@code address}'s, the same count as
     *     node A's so that no two listeners of this JVM share a port), or on node A if node B has no address
     */
    public String nextClientNodeAddress() {
        return clientHost == null ? nextServerAddress()
            : VerbsAddresses.next(clientHost + address.substring(address.lastIndexOf(':')));
    }

    /** @return whether {@code where} ({@code IP:PORT}) is node B's */
    public boolean onClientNode(final String where) {
        return clientHost != null && host(where).equals(clientHost);
    }

    /** @return the device that listens at {@code where}: the one owning its IP; null for one device */
    public String listeningDevice(final String where) {
        return onClientNode(where) ? clientDevice : serverDevice;
    }

    /**
     * @return the device that connects to {@code where}: the other node's, through which the route to it leaves;
     *     null for one device
     */
    public String connectingDevice(final String where) {
        return onClientNode(where) ? serverDevice : clientDevice;
    }

    /** @return what the run's environment states: which devices served and which connected */
    public String describe() {
        if (!twoDevices()) {
            return "one device, the default (-Drdma.verbs.device, else the first active one); servers at " + address
                + " and following ports";
        }
        return "two nodes: servers on " + serverDevice + " at " + host(address) + " (node A), connecting sides on "
            + clientDevice + " (node B)" + (clientHost == null ? "; every listener on node A"
            : "; all-reduce ranks and peer-kill peers alternate between node A and node B (" + clientDevice + " at "
            + clientHost + "), connecting to node B from " + serverDevice) + "; every connection crosses the link";
    }

    private static String host(final String where) {
        final int colon = where.lastIndexOf(':');
        return colon < 0 ? where : where.substring(0, colon);
    }
}
