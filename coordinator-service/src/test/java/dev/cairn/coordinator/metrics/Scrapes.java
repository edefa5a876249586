package dev.cairn.coordinator.metrics;

import java.util.Optional;

/** Reads one sample out of a scrape in Prometheus' text format. */
public final class Scrapes {

    private Scrapes() {}

    /**
     * The value of the sample whose name and labels are exactly {@code series}.
     *
     * @throws AssertionError when the scrape has no such sample
     */
    public static double value(String scrape, String series) {
        return find(scrape, series).orElseThrow(() -> new AssertionError("no sample " + series + " in:\n" + scrape));
    }

    /** The value of the sample whose name and labels are exactly {@code series}, empty when there is none. */
    public static Optional<Double> find(String scrape, String series) {
        return scrape.lines()
                .filter(line -> line.startsWith(series + " "))
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim().split(" ")[0]))
                .findFirst();
    }
}
