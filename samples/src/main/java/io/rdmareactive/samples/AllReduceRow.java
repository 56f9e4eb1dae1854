package io.rdmareactive.samples;

import java.util.Locale;

/**
 * One size's result, with nccl-tests' figures: algbw is the vector's size over the time, busbw the algbw times
 * 2(n-1)/n, the share of the vector each rank sends and receives in a ring all-reduce, so that it compares with a
 * link's bandwidth whatever the number of ranks.
 *
 * @param bytes  the vector's size
 * @param count  its elements (floats)
 * @param ranks  the ranks that summed it
 * @param micros the time of one all-reduce, in microseconds
 * @param wrong  the elements that differed from the expected sum
 */
public record AllReduceRow(long bytes, int count, int ranks, double micros, long wrong) {

    /** The table's two header lines, in nccl-tests' columns. */
    static final String HEADER = String.format(Locale.ROOT, "#%11s %12s %8s %6s %10s %8s %8s %8s%n"
            + "#%11s %12s %8s %6s %10s %8s %8s %8s", "size", "count", "type", "redop", "time", "algbw", "busbw",
        "#wrong", "(B)", "(elements)", "", "", "(us)", "(GB/s)", "(GB/s)", "");

    /** @return GB/s (10^9 bytes a second): the size over the time */
    public double algbw() {
        return bytes / micros / 1e3;
    }

    /** @return GB/s: algbw x 2(n-1)/n */
    public double busbw() {
        return algbw() * 2 * (ranks - 1) / ranks;
    }

    /** @return the row as the table shows it */
    String line() {
        return String.format(Locale.ROOT, " %11d %12d %8s %6s %10.1f %8.2f %8.2f %8d", bytes, count, "float", "sum",
            micros, algbw(), busbw(), wrong);
    }
}
