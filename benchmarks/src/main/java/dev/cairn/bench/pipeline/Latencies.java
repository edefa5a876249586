package dev.cairn.bench.pipeline;

import java.util.Arrays;

/**
 * The pure part of the latency run: which input event a result answers, and percentiles. The input is
 * {@link dev.cairn.pipeline.InputEvents}': event {@code i} has the key {@code k<i % keys>}, so the n-th event of key
 * {@code k<j>} is event {@code (n - 1) * keys + j}, and the pipeline's result with key {@code k<j>} and count
 * {@code n} is the result of exactly that event. Latency of a result = the time the results reader saw it minus the
 * time the generator produced its event, both {@link System#nanoTime()} of the same JVM.
 */
public final class Latencies {

    private Latencies() {
    }

    /**
     * The index of the input event whose result is {@code key} with count {@code count}, or -1 when the pair is not
     * a result of an input of {@code events} events over {@code keys} keys (another key, a count that is not a
     * positive number, or an event past the end).
     */
    public static long eventIndex(String key, String count, int keys, long events) {
        if (key == null || count == null || key.length() < 2 || key.charAt(0) != 'k') {
            return -1;
        }
        long keyIndex;
        long n;
        try {
            keyIndex = Long.parseLong(key.substring(1));
            n = Long.parseLong(count.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
        if (keyIndex < 0 || keyIndex >= keys || n < 1 || !key.equals("k" + keyIndex)) {
            return -1;
        }
        long index = (n - 1) * keys + keyIndex;
        return index < events ? index : -1;
    }

    /**
     * The {@code p}-th percentile (0 < p <= 100) of {@code values} by the nearest-rank method: the smallest value
     * with at least {@code p} % of the values at or below it; NaN for no values.
     */
    public static double percentile(long[] values, double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("a percentile is in (0, 100], was " + p);
        }
        if (values.length == 0) {
            return Double.NaN;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    /** The median of {@code values} (the mean of the middle two for an even count); NaN for none. */
    public static double median(double... values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
