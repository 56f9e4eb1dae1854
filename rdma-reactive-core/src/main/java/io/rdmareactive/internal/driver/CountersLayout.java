package io.rdmareactive.internal.driver;

import io.rdmareactive.ring.PageSize;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * The layout of a counters file, shared by the process that writes it ({@link DriverCounters}) and the processes that
 * read it ({@link CountersReaderTool}).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |                     magic 0x52524354 "RRCT"                   |  0
 * +---------------------------------------------------------------+
 * |                        layout version                         |  4
 * +---------------------------------------------------------------+
 * |                  metadata length (bytes, M)                   |  8
 * +---------------------------------------------------------------+
 * |                   values length (bytes, V)                    | 12
 * +---------------------------------------------------------------+
 * |                    owner process id (long)                    | 16
 * +---------------------------------------------------------------+
 * |        owner process start, ms since the epoch, or -1         | 24
 * +---------------------------------------------------------------+
 * |                file created, ms since the epoch               | 32
 * +---------------------------------------------------------------+
 * |                 reserved up to byte 128                      ...
 * +---------------------------------------------------------------+
 * |       Agrona counters metadata, M = 512 x max counters       ... 128
 * +---------------------------------------------------------------+
 * |        Agrona counters values, V = 128 x max counters        ... 128 + M
 * +---------------------------------------------------------------+
 * |                 zero padding to a page multiple              ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * Integers are in the machine's byte order (the file never leaves the host). The magic, the version and the owner
 * fields keep their offsets in every future version, so that any version can tell a live owner from a dead one.
 * The file is published complete: it is written under a temporary name and linked into place, so a reader never
 * sees a half-written header.
 */
final class CountersLayout {

    static final int MAGIC = 0x52524354;
    static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int METADATA_LENGTH_OFFSET = 8;
    static final int VALUES_LENGTH_OFFSET = 12;
    static final int OWNER_PID_OFFSET = 16;
    static final int OWNER_START_OFFSET = 24;
    static final int CREATED_OFFSET = 32;
    static final int HEADER_LENGTH = 128;

    /** The file name is {@code <name>.counters}. */
    static final String SUFFIX = ".counters";

    /** The most counters a file may hold: 40 MiB of metadata and values. */
    static final int MAX_COUNTERS = 1 << 16;

    private CountersLayout() {
    }

    static int metadataLength(final int maxCounters) {
        return maxCounters * CountersReader.METADATA_LENGTH;
    }

    static int valuesLength(final int maxCounters) {
        return maxCounters * CountersReader.COUNTER_LENGTH;
    }

    static long fileLength(final int maxCounters) {
        return PageSize.roundUp((long) HEADER_LENGTH + metadataLength(maxCounters) + valuesLength(maxCounters));
    }

    /**
     * Checks the header of a counters file.
     *
     * @param header     at least the first {@link #HEADER_LENGTH} bytes of the file (or all of it)
     * @param fileLength the file's length
     * @return null if the header describes a counters file of this version that fits the file, otherwise what is
     *     wrong with it
     */
    static String problem(final AtomicBuffer header, final long fileLength) {
        if (fileLength < HEADER_LENGTH || header.capacity() < HEADER_LENGTH) {
            return "it is " + fileLength + " bytes long, too short for a counters file";
        }
        if (header.getIntVolatile(MAGIC_OFFSET) != MAGIC) {
            return "it is not an rdma-reactive counters file (no magic number)";
        }
        final int version = header.getInt(VERSION_OFFSET);
        if (version != VERSION) {
            return "its layout version is " + version + "; this tool reads version " + VERSION;
        }
        final int metadataLength = header.getInt(METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(VALUES_LENGTH_OFFSET);
        if (valuesLength <= 0 || valuesLength % CountersReader.COUNTER_LENGTH != 0
            || valuesLength / CountersReader.COUNTER_LENGTH > MAX_COUNTERS
            || (long) metadataLength
                != (long) valuesLength / CountersReader.COUNTER_LENGTH * CountersReader.METADATA_LENGTH
            || HEADER_LENGTH + (long) metadataLength + valuesLength > fileLength) {
            return "its header is damaged (metadata " + metadataLength + " bytes, values " + valuesLength
                + " bytes, file " + fileLength + " bytes)";
        }
        return null;
    }
}
