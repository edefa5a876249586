package dev.cairn.coordinator.app;

import dev.cairn.coordinator.rest.sources.HealthSource;
import dev.cairn.coordinator.rest.sources.StateSource;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The coordinator's health as its Kafka Streams instance shows it: ready when it is {@code RUNNING} (its
 * tasks assigned and restored), its stream threads are not failing repeatedly ({@link StreamThreadFailures}: a
 * thread that fails on every attempt is {@code RUNNING} between attempts but makes no progress) and the stores of
 * every partition it owns answer a read; alive unless it stopped or is stopping ({@code ERROR},
 * {@code PENDING_SHUTDOWN}, {@code NOT_RUNNING}) or its stream threads keep failing
 * ({@link StreamThreadFailures}).
 */
final class StreamsHealth implements HealthSource {

    private static final Set<KafkaStreams.State> DEAD = EnumSet.of(KafkaStreams.State.ERROR,
            KafkaStreams.State.PENDING_SHUTDOWN, KafkaStreams.State.NOT_RUNNING);

    private final Supplier<KafkaStreams.State> state;
    private final StreamThreadFailures failures;
    private final LongSupplier clock;
    private final StateSource stores;

    /** Without a look at the stores: ready when {@code RUNNING}. */
    StreamsHealth(Supplier<KafkaStreams.State> state, StreamThreadFailures failures, LongSupplier clock) {
        this(state, failures, clock, null);
    }

    /**
     * @param state the current state of Kafka Streams, e.g. {@code streams::state}
     * @param failures the stream thread failures recorded so far
     * @param clock epoch milliseconds, e.g. {@code System::currentTimeMillis}
     * @param stores the stores of the partitions this instance owns, each read once per readiness check;
     *     {@code null}: not checked
     */
    StreamsHealth(Supplier<KafkaStreams.State> state, StreamThreadFailures failures, LongSupplier clock,
            StateSource stores) {
        this.state = state;
        this.failures = failures;
        this.clock = clock;
        this.stores = stores;
    }

    @Override
    public Health liveness() {
        KafkaStreams.State now = state.get();
        if (DEAD.contains(now)) {
            return Health.down("Kafka Streams is " + now);
        }
        long nowMs = clock.getAsLong();
        if (failures.isFailingRepeatedly(nowMs)) {
            return Health.down(failures.recentFailures(nowMs) + " stream thread failures in the last "
                    + StreamThreadFailures.WINDOW_MS / 1000 + " s");
        }
        return Health.up();
    }

    @Override
    public Health readiness() {
        KafkaStreams.State now = state.get();
        if (now != KafkaStreams.State.RUNNING) {
            return Health.down("Kafka Streams is " + now + ", not RUNNING");
        }
        long nowMs = clock.getAsLong();
        if (failures.isFailingRepeatedly(nowMs)) {
            return Health.down("the stream threads cannot make progress: " + failures.recentFailures(nowMs)
                    + " failures in the last " + StreamThreadFailures.WINDOW_MS / 1000 + " s");
        }
        return stores == null ? Health.up() : storesReadable();
    }

    /** One point read of the jobs store of every partition owned here (a job id that cannot exist). */
    private Health storesReadable() {
        for (int partition : stores.localPartitions()) {
            try {
                stores.reader(partition).job("");
            } catch (RuntimeException e) {
                return Health.down("the stores of partition " + partition + " are not queryable: " + e.getMessage());
            }
        }
        return Health.up();
    }
}
