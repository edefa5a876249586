package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.ReviewRow;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The settings review: the review shape (default 1 x 10,000) against a fresh coordinator per variant of Kafka
 * Streams overrides, each with its own topics and state, one after another (never two at once), after the
 * main coordinator has been closed.
 */
final class SettingsReview {

    private SettingsReview() {}

    static List<ReviewRow> run(String bootstrap, E2eOptions options, Workload workload) {
        List<ReviewRow> rows = new ArrayList<>();
        Shape shape = Shape.parse(options.reviewShape);
        int index = 0;
        for (Map.Entry<String, Map<String, String>> variant : options.reviewVariants().entrySet()) {
            System.out.printf("review %s, %s: %s%n", shape, variant.getKey(), variant.getValue());
            String prefix = "cairn-review-" + index++ + ".";
            try (CoordinatorInstance coordinator = CoordinatorInstance.start(bootstrap, prefix,
                    options.commitIntervalMs, variant.getValue());
                    CairnDriver driver = new CairnDriver(bootstrap, new CairnTopics(prefix), workload,
                            Duration.ofSeconds(options.timeoutS), options.ackLingerMs)) {
                ThroughputRun.Outcome outcome = ThroughputRun.run(bootstrap, driver, shape, options.reviewCheckpoints,
                        options.steadyAfter);
                rows.add(new ReviewRow(variant.getKey(), outcome.rate(), outcome.failure()));
            }
        }
        return rows;
    }
}
