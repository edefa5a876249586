package dev.cairn.bench.core;

import java.util.List;

/** The coordinator implementations the core benchmarks compare, by the name used as the JMH {@code impl}. */
public final class CoreDrivers {

    /** Every implementation, in table column order: Flink with a state handle per ack, then without. */
    public static final List<String> IMPLEMENTATIONS = List.of("cairn", "flink", "flink-stateless");

    private CoreDrivers() {
    }

    /** A driver of implementation {@code impl} (one of {@link #IMPLEMENTATIONS}) over {@code subtasks} subtasks. */
    public static CoordinatorDriver create(String impl, int subtasks) {
        return switch (impl) {
            case "cairn" -> new CairnCoreDriver(subtasks);
            case "flink" -> new FlinkCoordinatorDriver(subtasks, true);
            case "flink-stateless" -> new FlinkCoordinatorDriver(subtasks, false);
            default -> throw new IllegalArgumentException("unknown implementation " + impl + ", expected one of "
                    + IMPLEMENTATIONS);
        };
    }
}
