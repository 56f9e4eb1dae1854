package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Finds the RDMA devices of this machine and their ports, and says in one sentence why there are none where there are
 * none: libraries missing, no kernel support ({@code ENOSYS}), no connection manager ({@code ENODEV}), no device, no
 * active port. Device contexts come from {@code rdma_get_devices}, which opens each device once per process and
 * shares the context with every connection-manager identifier, so that the queue pairs the connection manager sets
 * up and the protection domains and registrations of the provider live in the same context.
 */
final class VerbsDeviceProbe {

    static final int PORT_ACTIVE = 4;

    private VerbsDeviceProbe() {
    }

    /** One port of a device. */
    record Port(int number, int state, int activeMtu, int maxMtu, int linkLayer, int lid, int gidTableLength,
                long maxMessageSize, int activeWidth, int activeSpeed, List<String> gids) {

        /** @return the lanes of {@code ibv_port_attr.active_width} (1, 4, 8, 12, 2), or 0 if unknown */
        int lanes() {
            return switch (activeWidth) {
                case 1 -> 1;
                case 2 -> 4;
                case 4 -> 8;
                case 8 -> 12;
                case 16 -> 2;
                default -> 0;
            };
        }

        /** @return the signalling rate of one lane of {@code ibv_port_attr.active_speed}, in Gb/s, or 0 if unknown */
        double laneGbps() {
            return switch (activeSpeed) {
                case 1 -> 2.5;      // SDR
                case 2 -> 5.0;      // DDR
                case 4, 8 -> 10.0;  // QDR, FDR10
                case 16 -> 14.0625; // FDR
                case 32 -> 25.78125; // EDR
                case 64 -> 50.0;    // HDR
                case 128 -> 100.0;  // NDR
                default -> 0;
            };
        }

        /** @return the port's speed as {@code ibv_devinfo} reckons it, e.g. {@code 4x 25.8 Gb/s = 103.1 Gb/s} */
        String speedName() {
            if (lanes() == 0 || laneGbps() == 0) {
                return "speed unknown (width code " + activeWidth + ", speed code " + activeSpeed + ")";
            }
            return String.format(java.util.Locale.ROOT, "%dx %.1f Gb/s = %.1f Gb/s", lanes(), laneGbps(),
                lanes() * laneGbps());
        }

        boolean isActive() {
            return state == PORT_ACTIVE;
        }

        String stateName() {
            return switch (state) {
                case 0 -> "NOP";
                case 1 -> "DOWN";
                case 2 -> "INIT";
                case 3 -> "ARMED";
                case 4 -> "ACTIVE";
                case 5 -> "ACTIVE_DEFER";
                default -> "STATE(" + state + ")";
            };
        }

        String linkLayerName() {
            return switch (linkLayer) {
                case 0, 1 -> "InfiniBand";
                case 2 -> "Ethernet (RoCE)";
                default -> "link layer " + linkLayer;
            };
        }

        static int mtuBytes(final int mtu) {
            return mtu >= 1 && mtu <= 5 ? 128 << mtu : 0;
        }

        String describe() {
            return "port " + number + " " + stateName() + " (" + linkLayerName() + ", MTU " + mtuBytes(activeMtu) + ")";
        }
    }

    /** One device, with the limits the provider uses. */
    record Device(String name, MemorySegment context, String firmware, long nodeGuid, int vendorId, int vendorPartId,
                  int maxQueuePairs, int maxQueuePairDepth, int maxSge, int maxCompletionQueues, int maxCqe,
                  long maxMrSize, int maxReadAtoms, int maxInitiatorReadAtoms, int atomicCapability,
                  List<Port> ports) {

        Optional<Port> activePort() {
            return ports.stream().filter(Port::isActive).findFirst();
        }

        String describePorts() {
            final List<String> parts = new ArrayList<>();
            ports.forEach(p -> parts.add(p.describe()));
            return parts.isEmpty() ? "no ports" : String.join(", ", parts);
        }
    }

    /**
     * What the probe found.
     *
     * @param devices the devices, possibly empty
     * @param problem why there are none (or why they cannot be used), or null
     */
    record Result(List<Device> devices, String problem) {

        /**
         * @param name a device name, or empty for the first device with an active port
         * @return the device to open, with an active port
         * @throws VerbsUnavailableException with the reason if there is none
         */
        Device choose(final Optional<String> name) {
            if (problem != null) {
                throw new VerbsUnavailableException(problem);
            }
            if (name.isPresent()) {
                final Device named = devices.stream().filter(d -> d.name().equals(name.get())).findFirst()
                    .orElseThrow(() -> new VerbsUnavailableException("there is no RDMA device named '" + name.get()
                        + "'; this machine has " + names()));
                if (named.activePort().isEmpty()) {
                    throw new VerbsUnavailableException(noActivePort(named));
                }
                return named;
            }
            return devices.stream().filter(d -> d.activePort().isPresent()).findFirst()
                .orElseThrow(() -> new VerbsUnavailableException(devices.size() == 1 ? noActivePort(devices.get(0))
                    : "no RDMA device has an active port: " + names() + "; check the links with ibv_devinfo"));
        }

        private String names() {
            final List<String> parts = new ArrayList<>();
            devices.forEach(d -> parts.add(d.name() + " (" + d.describePorts() + ")"));
            return String.join(", ", parts);
        }

        private static String noActivePort(final Device device) {
            return "RDMA device " + device.name() + " has no active port (" + device.describePorts() + "): check the "
                + "link with ibv_devinfo; on RoCE the network interface under it must be up, with an IP address";
        }
    }

    /** @return what this machine has; never throws for a missing library or device (the result says so) */
    static Result probe() {
        final VerbsLibrary lib;
        try {
            lib = VerbsLibrary.get();
        } catch (final VerbsUnavailableException ex) {
            return new Result(List.of(), ex.getMessage());
        }
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(arena);
            final MemorySegment count = arena.allocate(JAVA_INT);
            final MemorySegment list = VerbsLibrary.pointer(lib.getDeviceList, capture, count);
            if (list.equals(MemorySegment.NULL)) {
                final int errno = NativeCall.errno(capture);
                if (errno == Errno.ENOSYS) {
                    return new Result(List.of(), "this kernel has no RDMA support: ibv_get_device_list failed with "
                        + Errno.name(errno) + " (there is no /sys/class/infiniband_verbs); load the ib_uverbs module and "
                        + "your adapter's driver (mlx5_ib, or rdma_rxe for Soft-RoCE), or, in a container, expose "
                        + "/dev/infiniband and /sys/class/infiniband_verbs");
                }
                return new Result(List.of(), "ibv_get_device_list failed with " + Errno.name(errno)
                    + "; check that the ib_uverbs module is loaded and /dev/infiniband is readable");
            }
            final int devices = count.get(JAVA_INT, 0);
            VerbsLibrary.plain(lib.freeDeviceList, list);
            if (devices == 0) {
                return new Result(List.of(), "there is no RDMA device on this machine (the kernel supports RDMA, but "
                    + "no adapter is registered; ibv_devices lists none): load your adapter's driver, or add a "
                    + "Soft-RoCE device with 'rdma link add rxe0 type rxe netdev <interface>'");
            }
            final MemorySegment contexts = VerbsLibrary.pointer(lib.getDevices, capture, count);
            if (contexts.equals(MemorySegment.NULL)) {
                final int errno = NativeCall.errno(capture);
                return new Result(List.of(), "the RDMA connection manager is not available (rdma_get_devices failed "
                    + "with " + Errno.name(errno) + "): load the rdma_ucm kernel module (modprobe rdma_ucm) and check "
                    + "that /dev/infiniband/rdma_cm exists");
            }
            final int n = count.get(JAVA_INT, 0);
            final MemorySegment array = contexts.reinterpret(ADDRESS.byteSize() * n);
            final List<Device> found = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                final MemorySegment context = array.getAtIndex(ADDRESS, i)
                    .reinterpret(VerbsLayouts.IBV_CONTEXT.byteSize());
                found.add(describe(lib, arena, context));
            }
            VerbsLibrary.plain(lib.freeDevices, contexts);
            return new Result(List.copyOf(found), null);
        }
    }

    private static Device describe(final VerbsLibrary lib, final Arena arena, final MemorySegment context) {
        final MemorySegment device = context.get(ADDRESS, VerbsLayouts.CONTEXT_DEVICE);
        final String name = VerbsLibrary.string((MemorySegment) VerbsLibrary.plain(lib.getDeviceName, device));
        final MemorySegment attr = arena.allocate(VerbsLayouts.IBV_DEVICE_ATTR);
        final int rc = (int) VerbsLibrary.plain(lib.queryDevice, context, attr);
        if (rc != 0) {
            throw new VerbsUnavailableException("ibv_query_device on " + name + " failed with " + Errno.name(rc));
        }
        final int portCount = Byte.toUnsignedInt(attr.get(JAVA_BYTE, VerbsLayouts.DEVICE_ATTR_PHYS_PORT_CNT));
        final List<Port> ports = new ArrayList<>();
        for (int p = 1; p <= portCount; p++) {
            final MemorySegment port = arena.allocate(VerbsLayouts.IBV_PORT_ATTR);
            port.fill((byte) 0);
            if ((int) VerbsLibrary.plain(lib.queryPort, context, (byte) p, port) != 0) {
                continue;
            }
            final int gidTable = port.get(JAVA_INT, VerbsLayouts.PORT_ATTR_GID_TBL_LEN);
            final List<String> gids = new ArrayList<>();
            final MemorySegment gid = arena.allocate(VerbsLayouts.GID_LENGTH, 8);
            for (int index = 0; index < Math.min(gidTable, 4); index++) {
                if ((int) VerbsLibrary.plain(lib.queryGid, context, (byte) p, index, gid) == 0) {
                    final byte[] raw = gid.toArray(JAVA_BYTE);
                    if (!isZero(raw)) {
                        gids.add(index + ":" + formatGid(raw));
                    }
                }
            }
            ports.add(new Port(p, port.get(JAVA_INT, VerbsLayouts.PORT_ATTR_STATE),
                port.get(JAVA_INT, VerbsLayouts.PORT_ATTR_ACTIVE_MTU),
                port.get(JAVA_INT, VerbsLayouts.PORT_ATTR_MAX_MTU),
                Byte.toUnsignedInt(port.get(JAVA_BYTE, VerbsLayouts.PORT_ATTR_LINK_LAYER)),
                Short.toUnsignedInt(port.get(JAVA_SHORT, VerbsLayouts.PORT_ATTR_LID)), gidTable,
                Integer.toUnsignedLong(port.get(JAVA_INT, VerbsLayouts.PORT_ATTR_MAX_MSG_SZ)),
                Byte.toUnsignedInt(port.get(JAVA_BYTE, VerbsLayouts.PORT_ATTR_ACTIVE_WIDTH)),
                Byte.toUnsignedInt(port.get(JAVA_BYTE, VerbsLayouts.PORT_ATTR_ACTIVE_SPEED)), List.copyOf(gids)));
        }
        final byte[] fw = attr.asSlice(VerbsLayouts.DEVICE_ATTR_FW_VER, VerbsLayouts.DEVICE_ATTR_FW_VER_LENGTH)
            .toArray(JAVA_BYTE);
        int end = 0;
        while (end < fw.length && fw[end] != 0) {
            end++;
        }
        return new Device(name, context, new String(fw, 0, end, java.nio.charset.StandardCharsets.US_ASCII),
            attr.get(JAVA_LONG, VerbsLayouts.DEVICE_ATTR_NODE_GUID),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_VENDOR_ID),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_VENDOR_PART_ID),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_MAX_QP),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_MAX_QP_WR),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_MAX_SGE),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_MAX_CQ),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_MAX_CQE),
            attr.get(JAVA_LONG, VerbsLayouts.DEVICE_ATTR_MAX_MR_SIZE),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_MAX_QP_RD_ATOM),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_MAX_QP_INIT_RD_ATOM),
            attr.get(JAVA_INT, VerbsLayouts.DEVICE_ATTR_ATOMIC_CAP), List.copyOf(ports));
    }

    private static boolean isZero(final byte[] raw) {
        for (final byte b : raw) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    static String formatGid(final byte[] raw) {
        final String hex = HexFormat.of().formatHex(raw);
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) {
            if (i > 0) {
                text.append(':');
            }
            text.append(hex, i, i + 4);
        }
        return text.toString();
    }
}
