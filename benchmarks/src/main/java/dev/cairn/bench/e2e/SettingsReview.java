package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.Rate;
import dev.cairn.bench.e2e.Results.ReviewRow;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings review: the review shape (default 1 x 10,000) against a fresh coordinator per variant of Kafka
 * Streams overrides, each with its own topics and state, one after another (never two at once), after the
 * main coordinator has been closed; signed or unsigned as the rest of the run (every coordinator gets the run's
 * master key). With repeats, the variants run in order, then in reverse order, and so on
 * (A B C, C B A, ...), so that a drift of the machine over the run does not favour the variants that run late; a
 * variant's rate counts the steady-state rounds of all its repeats.
 */
final class SettingsReview {

    private SettingsReview() {}

    static List<ReviewRow> run(String bootstrap, E2eOptions options, Workload workload) {
        Shape shape = Shape.parse(options.reviewShape);
        List<Map.Entry<String, Map<String, String>>> variants = new ArrayList<>(options.reviewVariants().entrySet());
        Map<String, List<Rate>> rates = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        variants.forEach(v -> rates.put(v.getKey(), new ArrayList<>()));
        int index = 0;
        for (int repeat = 0; repeat < options.reviewRepeats; repeat++) {
            List<Map.Entry<String, Map<String, String>>> order = new ArrayList<>(variants);
            if (repeat % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            for (Map.Entry<String, Map<String, String>> variant : order) {
                if (failures.containsKey(variant.getKey())) {
                    continue;
                }
                System.out.printf("review %s, %s (repeat %d): %s%n", shape, variant.getKey(), repeat + 1,
                        variant.getValue());
                String prefix = "cairn-review-" + index++ + ".";
                try (CoordinatorInstance coordinator = CoordinatorInstance.start(bootstrap, prefix,
                        options.commitIntervalMs, variant.getValue(), workload.keys().masterKey());
                        CairnDriver driver = new CairnDriver(bootstrap, new CairnTopics(prefix), workload,
                                Duration.ofSeconds(options.timeoutS), options.ackLingerMs)) {
                    ThroughputRun.Outcome outcome = ThroughputRun.run(bootstrap, driver, shape,
                            options.reviewCheckpoints, options.steadyAfter);
                    if (outcome.failure() != null) {
                        failures.put(variant.getKey(), outcome.failure());
                    } else {
                        rates.get(variant.getKey()).add(outcome.rate());
                    }
                }
            }
        }
        List<ReviewRow> rows = new ArrayList<>();
        for (Map.Entry<String, List<Rate>> entry : rates.entrySet()) {
            String failure = failures.get(entry.getKey());
            rows.add(failure != null ? new ReviewRow(entry.getKey(), null, List.of(), failure)
                    : new ReviewRow(entry.getKey(), combined(entry.getValue()), entry.getValue(), null));
        }
        return rows;
    }

    /** One rate over the steady-state rounds of every repeat. */
    private static Rate combined(List<Rate> repeats) {
        List<Double> steady = new ArrayList<>();
        repeats.forEach(rate -> steady.addAll(rate.steadyMs()));
        return new Rate(repeats.get(0).perRound(), steady, 0);
    }
}
