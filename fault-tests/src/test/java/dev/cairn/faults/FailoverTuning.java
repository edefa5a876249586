package dev.cairn.faults;

import java.util.List;

/**
 * Which failover settings the coordinator processes run with, so that one harness measures before and after:
 * {@link #TUNED} is the coordinator's own defaults (no extra flags); {@link #KAFKA_DEFAULTS} turns them back to
 * what Kafka Streams does out of the box (dynamic membership, 45 s sessions, no standby, warm-up before a task
 * moves, 10 s transactions). Chosen with the system property {@code cairn.faults.tuning} ({@code tuned} or
 * {@code kafka-defaults}).
 */
enum FailoverTuning {
    TUNED(List.of()),
    KAFKA_DEFAULTS(List.of("--session-timeout-ms=45000", "--heartbeat-interval-ms=3000",
            "--standby-replicas=0", "--acceptable-recovery-lag=10000", "--probing-rebalance-interval-ms=600000",
            "--transaction-timeout-ms=10000"));

    private final List<String> flags;

    FailoverTuning(List<String> flags) {
        this.flags = flags;
    }

    /** The coordinator flags of this tuning for the instance named {@code instanceName}. */
    List<String> flags(String instanceName) {
        List<String> all = new java.util.ArrayList<>(flags);
        all.add("--instance-id=" + (this == TUNED ? instanceName : ""));
        return all;
    }

    /** The tuning the system property {@code cairn.faults.tuning} names; {@link #TUNED} when unset. */
    static FailoverTuning fromSystemProperty() {
        String value = System.getProperty("cairn.faults.tuning", "tuned");
        return switch (value) {
            case "tuned" -> TUNED;
            case "kafka-defaults" -> KAFKA_DEFAULTS;
            default -> throw new IllegalArgumentException("cairn.faults.tuning must be tuned or kafka-defaults, was "
                    + value);
        };
    }
}
