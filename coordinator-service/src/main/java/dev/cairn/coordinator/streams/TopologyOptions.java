package dev.cairn.coordinator.streams;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;

/**
 * What {@link CoordinatorTopology#build} builds the topology from. Start from {@link #of} and change what differs
 * from the defaults with the {@code with} methods.
 *
 * @param topics the topic names
 * @param settings the decider's bounds (queue capacity, history size, input limits)
 * @param random draws the random fraction of the first periodic trigger's delay
 * @param tickInterval how often due timers are looked for
 * @param maxRecordBytes the largest record value the coordinator sends; a decision that would send a larger one is
 *     refused and its input dead-lettered (see {@link OutputSizeGuard}); default
 *     {@link CoordinatorTopology#DEFAULT_MAX_RECORD_BYTES}
 * @param auth which input records must be signed ({@link InputAuthentication}); default none
 * @param listener gets every applied decision's events (the coordinator's metrics); default none
 * @param journal where stores that are not of this release's layout are rebuilt from ({@link KafkaJournalSource} in
 *     a coordinator; see {@link StoreRebuild}); default an empty journal
 * @param snapshots where rebuilds start from and tasks write snapshots of their journal partition
 *     ({@link KafkaSnapshotStore} in a coordinator; see {@link SnapshotMaker}); default none
 * @param wrapDecide wraps the decider (tests make it fail); default none
 */
public record TopologyOptions(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
        Duration tickInterval, int maxRecordBytes, InputAuthentication auth, DecisionListener listener,
        JournalSource journal, SnapshotStore snapshots, UnaryOperator<CoordinatorProcessor.Decide> wrapDecide) {

    /** The defaults for everything but the topics, the settings, the random source and the tick interval. */
    public static TopologyOptions of(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
            Duration tickInterval) {
        return new TopologyOptions(topics, settings, random, tickInterval, CoordinatorTopology.DEFAULT_MAX_RECORD_BYTES,
                InputAuthentication.NONE, DecisionListener.NONE, JournalSource.EMPTY, SnapshotStore.NONE,
                UnaryOperator.identity());
    }

    public TopologyOptions withAuth(InputAuthentication inputs) {
        return new TopologyOptions(topics, settings, random, tickInterval, maxRecordBytes, inputs, listener, journal,
                snapshots, wrapDecide);
    }

    public TopologyOptions withListener(DecisionListener decisions) {
        return new TopologyOptions(topics, settings, random, tickInterval, maxRecordBytes, auth, decisions, journal,
                snapshots, wrapDecide);
    }

    public TopologyOptions withJournal(JournalSource source) {
        return new TopologyOptions(topics, settings, random, tickInterval, maxRecordBytes, auth, listener, source,
                snapshots, wrapDecide);
    }

    public TopologyOptions withSnapshots(SnapshotStore store) {
        return new TopologyOptions(topics, settings, random, tickInterval, maxRecordBytes, auth, listener, journal,
                store, wrapDecide);
    }
}
