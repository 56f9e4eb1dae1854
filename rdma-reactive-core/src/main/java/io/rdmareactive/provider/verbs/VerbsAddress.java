package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/**
 * An address in the verbs provider's form, {@code host:port}: the IPv4 address (or a name that resolves to one) of a
 * network interface that an RDMA device serves (the RoCE netdev, or the IPoIB interface), and a TCP-style port of the
 * connection manager's port space. Port 0 asks for any free port when listening.
 *
 * @param host the address as given
 * @param ip   its IPv4 address
 * @param port the port
 */
record VerbsAddress(String host, Inet4Address ip, int port) {

    private static final short AF_INET = 2;
    /** {@code sin_port} is in network byte order. */
    private static final ValueLayout.OfShort NETWORK_SHORT = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);

    /**
     * @param address {@code host:port}
     * @return the parsed address
     * @throws IllegalArgumentException if it is malformed or does not resolve to an IPv4 address; the message says why
     */
    static VerbsAddress parse(final String address) {
        final int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("a verbs address is host:port (the IPv4 address of an RDMA-capable "
                + "interface and a port), for example 192.168.1.10:7471; got '" + address + "'");
        }
        final String host = address.substring(0, colon);
        final int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (final NumberFormatException ex) {
            throw new IllegalArgumentException("the port of verbs address '" + address + "' is not a number");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("the port of verbs address '" + address + "' is not 0 to 65535");
        }
        if (host.startsWith("[") || host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("verbs address '" + address + "': only IPv4 addresses are supported "
                + "in this version");
        }
        try {
            for (final InetAddress candidate : InetAddress.getAllByName(host)) {
                if (candidate instanceof Inet4Address ip4) {
                    return new VerbsAddress(host, ip4, port);
                }
            }
        } catch (final UnknownHostException ex) {
            throw new IllegalArgumentException("the host of verbs address '" + address + "' does not resolve: "
                + ex.getMessage());
        }
        throw new IllegalArgumentException("the host of verbs address '" + address + "' has no IPv4 address");
    }

    /** @return a {@code struct sockaddr_in} of this address */
    MemorySegment toSockaddr(final Arena arena) {
        final MemorySegment sockaddr = arena.allocate(VerbsLayouts.SOCKADDR_IN);
        write(sockaddr, ip, port);
        return sockaddr;
    }

    static void write(final MemorySegment sockaddr, final Inet4Address ip, final int port) {
        sockaddr.set(JAVA_SHORT, VerbsLayouts.SOCKADDR_IN_FAMILY, AF_INET);
        sockaddr.set(NETWORK_SHORT, VerbsLayouts.SOCKADDR_IN_PORT, (short) port);
        final byte[] raw = ip.getAddress();
        for (int i = 0; i < VerbsLayouts.SOCKADDR_IN_ADDR_LENGTH; i++) {
            sockaddr.set(JAVA_BYTE, VerbsLayouts.SOCKADDR_IN_ADDR + i, raw[i]);
        }
    }

    /** @return a {@code struct sockaddr} (IPv4) as {@code a.b.c.d:port}, or a description of another family */
    static String describe(final MemorySegment sockaddr) {
        final short family = sockaddr.get(JAVA_SHORT, VerbsLayouts.SOCKADDR_FAMILY);
        if (family != AF_INET) {
            return "(address family " + family + ")";
        }
        final int port = Short.toUnsignedInt(sockaddr.get(NETWORK_SHORT, VerbsLayouts.SOCKADDR_IN_PORT));
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < VerbsLayouts.SOCKADDR_IN_ADDR_LENGTH; i++) {
            text.append(i == 0 ? "" : ".").append(Byte.toUnsignedInt(sockaddr.get(JAVA_BYTE,
                VerbsLayouts.SOCKADDR_IN_ADDR + i)));
        }
        return text.append(':').append(port).toString();
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
