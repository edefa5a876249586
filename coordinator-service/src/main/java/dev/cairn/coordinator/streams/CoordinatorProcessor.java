package dev.cairn.coordinator.streams;

import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.decide.CompletedTopicRecord;
import dev.cairn.core.decide.Decided;
import dev.cairn.core.events.Command;
import dev.cairn.core.events.EventDescriptions;
import dev.cairn.core.events.TimerIndex;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.JobRemoved;
import dev.cairn.metrics.logging.JobLogContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thin shell around {@link CheckpointDecider}: turns each request or ack record, and each due timer,
 * into a command; runs the decider; writes the state changes the decision made (the same evolve that replay
 * uses made them, once) to the stores; and forwards what the decision made: every event to the journal,
 * notifications to the control topic, and the records of a new restore point ({@link Decided#completedRecords}) to
 * the completed topic; then it hands the events to its {@link DecisionListener} (metrics). It makes no decision of
 * its own: it encodes, measures and forwards.
 *
 * <p>The timer index is the shell's own: a due timer becomes a {@link Command.Tick}, and a job's removal
 * ({@link JobRemoved}) removes the job's timers from it, as the evolve removes the job from the other stores.
 *
 * <p>When Kafka Streams initialises the task and its stores are not of this release's layout (or there are none),
 * they are rebuilt from the task's journal partition before it decides anything: at once when the partition is short
 * ({@link StoreRebuild#inline}), else in the background ({@link BackgroundRebuild}) while the task keeps its inputs
 * in a {@link RebuildBacklog}; a punctuator every {@link #CATCH_UP_EVERY} writes the fold in steps of at most
 * {@link #CATCH_UP_STEP}, then decides the kept inputs in their order, and asks for a commit after each step. Timers
 * fire once nothing is left to catch up with. Every journal record decided on an input names that input in its
 * headers ({@link StoreLayout}). Every {@link SnapshotStore#INTERVAL_CONFIG} it starts a snapshot of its journal
 * partition on a thread of its own ({@link SnapshotMaker}), from which later rebuilds start.
 *
 * <p>Failures are contained to the command that caused them: whatever deciding one record throws (an
 * {@code Error} included), and a decision whose records cannot be encoded or would be too large to send (every
 * journal and control record is encoded, and measured, before anything is applied), is thrown as a
 * {@link CommandFailedException} before anything is applied, so the record goes to the dead-letter topic
 * and the next record is processed. An input whose decision Kafka still refused to take is skipped the same way
 * when it comes again ({@link UnsendableInputs}). A timer tick that fails is logged and retried later; the other
 * jobs' ticks go on.
 */
final class CoordinatorProcessor implements Processor<String, SpecificRecord, String, Object> {

    private static final Logger LOG = LoggerFactory.getLogger("dev.cairn.coordinator.CheckpointCoordinator");
    static final Bytes NO_VALUE = Bytes.wrap(new byte[0]);
    private static final long TICK_RETRY_MS = 10_000;
    /** How often a task that rebuilds its stores, or has kept inputs, catches up. */
    static final Duration CATCH_UP_EVERY = Duration.ofMillis(20);
    /** The longest a catching-up step runs: well within a transaction's time-out. */
    static final Duration CATCH_UP_STEP = Duration.ofMillis(50);

    private final Decide decide;
    private final CommandMapper commands;
    private final Duration tickInterval;
    private final OutputSizeGuard sizeGuard;
    private final DecisionListener listener;
    private final StoreRebuild rebuild;
    private final String journalTopic;
    private ProcessorContext<String, Object> context;
    /** Inputs at or below these offsets (by topic, in this task's partition) the journal already reflects. */
    private Map<String, Long> reflectedInputs;
    private UnsendableInputs unsendable;
    private CoordinatorState state;
    private KeyValueStore<Bytes, Bytes> timers;
    /** The rebuild under way in the background, {@code null} when there is none. */
    private BackgroundRebuild rebuilding;
    /** The snapshot last started, {@code null} before the first. */
    private SnapshotMaker snapshotting;
    /** Whether this task sent a journal record since the last snapshot started. */
    private boolean journalMovedOn = true;
    /**
     * Whether it had sent one before the last snapshot started (or that one failed): the records of a transaction
     * still open then were not in it, so one more is due.
     */
    private boolean movedOnBeforeLast;
    private RebuildBacklog backlog;
    private Cancellable catchingUp;
    /** Kafka Streams' commit interval, and when this processor last asked for a commit sooner. */
    private long commitIntervalMs;
    private long commitRequestedAtMs = Long.MIN_VALUE;

    /** How the processor decides: {@link CheckpointDecider#decide} (tests wrap it to make it fail). */
    @FunctionalInterface
    interface Decide {
        Decided decide(Command command, CoordinatorState state, long now);
    }

    CoordinatorProcessor(Decide decide, CommandMapper commands, Duration tickInterval,
            OutputSizeGuard sizeGuard, DecisionListener listener, StoreRebuild rebuild, String journalTopic) {
        this.decide = decide;
        this.rebuild = rebuild;
        this.journalTopic = journalTopic;
        this.listener = listener;
        this.commands = commands;
        this.tickInterval = tickInterval;
        this.sizeGuard = sizeGuard;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.unsendable = UnsendableInputs.from(context.appConfigs());
        this.timers = context.getStateStore(CoordinatorStores.TIMERS);
        Object commitInterval = context.appConfigs().get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
        this.commitIntervalMs = commitInterval == null ? 0 : Long.parseLong(commitInterval.toString());
        this.backlog = RebuildBacklog.in(timers);
        int partition = context.taskId().partition();
        Optional<String> reason = StoreLayout.rebuildReason(timers);
        if (reason.isPresent() && rebuild.inline(context.appConfigs(), journalTopic, partition)) {
            rebuild.rebuild(context.appConfigs(), journalTopic, partition, reason.get(), context::getStateStore,
                    context.currentSystemTimeMs());
            reason = Optional.empty();
        }
        if (reason.isPresent()) {
            rebuilding = BackgroundRebuild.start(rebuild, context.appConfigs(), journalTopic, partition, reason.get(),
                    context.currentSystemTimeMs());
        } else {
            goLive();
        }
        if (rebuilding != null || !backlog.isEmpty()) {
            catchingUp = context.schedule(CATCH_UP_EVERY, PunctuationType.WALL_CLOCK_TIME, this::catchUp);
        }
        context.schedule(tickInterval, PunctuationType.WALL_CLOCK_TIME, this::fireDueTimers);
        Duration snapshotInterval = SnapshotMaker.interval(context.appConfigs());
        if (rebuild.snapshots().keeps() && !snapshotInterval.isZero()) {
            context.schedule(snapshotInterval, PunctuationType.WALL_CLOCK_TIME, this::snapshot);
        }
    }

    /**
     * Starts a snapshot of the task's journal partition ({@link SnapshotMaker}) unless the last one still runs, the
     * stores are still rebuilt (the snapshot of a rebuild in the background would fold the same journal twice at once),
     * or the task sent no journal record since the one before the last (an idle partition is not read again; the last
     * one may have missed the records of a transaction then open).
     */
    private void snapshot(long now) {
        if (rebuilding != null || snapshotting != null && snapshotting.running()) {
            return;
        }
        boolean movedOn = journalMovedOn || snapshotting != null && !snapshotting.succeeded();
        if (!movedOn && !movedOnBeforeLast) {
            return;
        }
        movedOnBeforeLast = movedOn;
        journalMovedOn = false;
        snapshotting = SnapshotMaker.start(rebuild, context.appConfigs(), journalTopic, context.taskId().partition(),
                now);
    }

    /** The stores are of this release's layout: decisions read them from now on. */
    private void goLive() {
        this.reflectedInputs = StoreLayout.inputPositions(timers);
        this.state = CoordinatorState.over(StreamsStorage.forTask(context::getStateStore));
    }

    /** Whether inputs wait: the stores are rebuilt, or inputs kept meanwhile are not all decided yet. */
    private boolean catchingUp() {
        return rebuilding != null || !backlog.isEmpty();
    }

    /**
     * One step of catching up, at most {@link #CATCH_UP_STEP} long: the rebuild's writing of the stores, then the
     * kept inputs, oldest first; a commit is asked for after each step.
     *
     * @throws BackloggedInputException when a kept input fails as it would have failed when it came (it is
     *     dead-lettered with its reason, and the next step goes on)
     */
    private void catchUp(long now) {
        long deadline = System.nanoTime() + CATCH_UP_STEP.toNanos();
        if (rebuilding != null) {
            if (rebuilding.folding()) {
                return;
            }
            if (rebuilding.step(context::getStateStore, deadline).isEmpty()) {
                context.commit();
                return;
            }
            rebuilding = null;
            goLive();
            LOG.info("Partition {} rebuilt; deciding the {} inputs kept meanwhile", context.taskId().partition(),
                    backlog.size());
        }
        while (System.nanoTime() < deadline) {
            Optional<RebuildBacklog.Entry> kept = backlog.take();
            if (kept.isEmpty()) {
                break;
            }
            RebuildBacklog.Entry entry = kept.get();
            try {
                handle(entry, entry.timestampMs(), entry.key(), entry.envelope());
            } catch (StreamsException storeOrTaskFailure) {
                throw storeOrTaskFailure;
            } catch (RuntimeException failure) {
                context.commit();
                throw new BackloggedInputException(entry, failure);
            }
        }
        if (backlog.isEmpty() && catchingUp != null) {
            catchingUp.cancel();
            catchingUp = null;
        }
        context.commit();
    }

    @Override
    public void close() {
        if (rebuilding != null) {
            rebuilding.close();
        }
        if (snapshotting != null) {
            snapshotting.close();
        }
    }

    @Override
    public void process(Record<String, SpecificRecord> record) {
        RecordMetadata input = context.recordMetadata().orElse(null);
        if (input != null && catchingUp()) {
            commands.toCommand(record.key(), record.value(), record.timestamp());
            backlog.append(input, record.timestamp(), record.key(), record.value());
            return;
        }
        handle(input, record.timestamp(), record.key(), record.value());
    }

    /**
     * Decides one input (read now, or kept while the stores were rebuilt) and sends what it decided;
     * {@code timestampMs} is the input's record timestamp.
     */
    private void handle(RecordMetadata input, long timestampMs, String key, SpecificRecord envelope) {
        if (input != null && reflected(input)) {
            return;
        }
        if (input != null) {
            Optional<String> unsendableBecause = unsendable.take(input);
            if (unsendableBecause.isPresent()) {
                throw new CommandFailedException("OUTPUT_UNSENDABLE", "Kafka refused what this record decided ("
                        + unsendableBecause.get() + "); the coordinator skipped the record and decided nothing", null);
            }
            unsendable.processing(input);
        }
        try (JobLogContext.Scope job = JobLogContext.of(key)) {
            Command command = commands.toCommand(key, envelope, timestampMs);
            long now = context.currentSystemTimeMs();
            apply(command, decide(command, now), now, input == null ? null : StoreLayout.headersOf(input));
        } finally {
            unsendable.processed();
        }
    }

    /**
     * Sends a tick to every job with a timer due by {@code now}; costs what is due, not the number of jobs: the scan
     * reads only the timers due by then (the in-memory store copies the keys of the range it iterates).
     */
    private void fireDueTimers(long now) {
        DeadLetterQueueHandler.logSuppressed();
        if (catchingUp()) {
            return;
        }
        Set<String> dueJobs = new LinkedHashSet<>();
        List<Bytes> fired = new ArrayList<>();
        try (KeyValueIterator<Bytes, Bytes> it = timers.range(null, TimerKeys.dueBy(now))) {
            while (it.hasNext()) {
                KeyValue<Bytes, Bytes> entry = it.next();
                if (TimerKeys.timerDueAt(entry.key) > now) {
                    break;
                }
                fired.add(entry.key);
                dueJobs.add(TimerKeys.timerJob(entry.key));
            }
        }
        fired.forEach(timers::delete);
        for (String jobId : dueJobs) {
            try (JobLogContext.Scope job = JobLogContext.of(jobId)) {
                tick(jobId, now);
            }
        }
    }

    private void tick(String jobId, long now) {
        Command tick = new Command.Tick(jobId);
        Ready decided;
        try {
            decided = decide(tick, now);
        } catch (CommandFailedException e) {
            LOG.error("Timer of job {} failed; retrying in {} ms: {}", jobId, TICK_RETRY_MS, e.getMessage(), e);
            timers.put(TimerKeys.timer(now + TICK_RETRY_MS, jobId), NO_VALUE);
            return;
        }
        apply(tick, decided, now, null);
    }

    /**
     * Decides on an overlay of the stores, so a failure here leaves them untouched.
     *
     * @throws CommandFailedException for any failure of the decision (the record is dead-lettered), or events
     *     that cannot be encoded or are too large to send
     * @throws StreamsException as it came from a store: the task, not the record, is broken, and Kafka Streams
     *     recovers the task
     */
    private Ready decide(Command command, long now) {
        Decided decided;
        try {
            decided = decide.decide(command, state, now);
        } catch (StreamsException storeOrTaskFailure) {
            throw storeOrTaskFailure;
        } catch (Throwable failure) {
            Command failed = command instanceof Command.Delivered delivered ? delivered.request() : command;
            throw new CommandFailedException(failure.getClass().getSimpleName(), "deciding "
                    + failed.getClass().getSimpleName() + " of job " + command.jobId() + " failed: " + failure,
                    failure);
        }
        return new Ready(decided, sizeGuard.encode(command.jobId(), decided.events()));
    }

    /** A decision with its journal and control records encoded, ready to be applied and sent. */
    private record Ready(Decided decided, List<OutputSizeGuard.Encoded> encoded) {
    }

    /**
     * Whether the journal already holds the decision on this input: an application that read its inputs from the
     * beginning over the journal of another (a new application id) skips it.
     */
    private boolean reflected(RecordMetadata input) {
        Long through = reflectedInputs.isEmpty() ? null : reflectedInputs.get(input.topic());
        if (through == null || input.offset() > through) {
            return false;
        }
        LOG.debug("Skipping {}-{}@{}: the journal already reflects it", input.topic(), input.partition(),
                input.offset());
        return true;
    }

    /** Applies the decision and forwards its records; {@code inputHeaders} name the input in the journal. */
    private void apply(Command command, Ready ready, long now, Headers inputHeaders) {
        Decided decided = ready.decided();
        List<OutputSizeGuard.Encoded> encoded = ready.encoded();
        String jobId = command.jobId();
        decided.applyTo(state);
        for (OutputSizeGuard.Encoded output : encoded) {
            SpecificRecord event = output.event();
            TimerIndex.timer(event).ifPresent(t -> timers.put(TimerKeys.timer(t.dueAtMs(), t.jobId()), NO_VALUE));
            EventDescriptions.describe(event).ifPresent(LOG::info);
            context.forward(new Record<>(jobId, output.journal(), now, inputHeaders),
                    CoordinatorTopology.JOURNAL_SINK);
            journalMovedOn = true;
            if (output.control() != null) {
                context.forward(new Record<>(jobId, output.control(), now), CoordinatorTopology.CONTROL_SINK);
            }
        }
        for (SpecificRecord event : decided.events()) {
            if (event instanceof JobRemoved removed) {
                removeTimers(removed.getJobId());
            }
        }
        for (CompletedTopicRecord completed : decided.completedRecords()) {
            context.forward(new Record<>(completed.key(), (Object) completed.value(), now),
                    CoordinatorTopology.COMPLETED_SINK);
        }
        if (!decided.completedRecords().isEmpty()) {
            commitSoon(now);
        }
        if (!decided.events().isEmpty()) {
            tell(jobId, decided, now);
        }
    }

    /**
     * Removes a removed job's timers from the index, so that it keeps nothing of the job (a tick of a job that no
     * longer exists would decide nothing): one scan of the timers that can come due, as rare as a removal.
     */
    private void removeTimers(String jobId) {
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, Bytes> it = timers.range(null, TimerKeys.timer(StoreLayout.NEVER, ""))) {
            while (it.hasNext()) {
                Bytes key = it.next().key;
                if (TimerKeys.timerDueAt(key) < StoreLayout.NEVER && jobId.equals(TimerKeys.timerJob(key))) {
                    keys.add(key);
                }
            }
        }
        keys.forEach(timers::delete);
    }

    /**
     * Asks Kafka Streams to commit once this record is processed rather than when the commit interval ends, so that
     * a restore point reaches the sidecars (read_committed) without waiting out the interval: at most once per
     * interval, so a burst of completions adds at most one commit per interval to the regular ones.
     */
    private void commitSoon(long now) {
        if (commitRequestedAtMs == Long.MIN_VALUE || now - commitRequestedAtMs >= commitIntervalMs) {
            commitRequestedAtMs = now;
            context.commit();
        }
    }

    /** Hands the applied events to the listener; a failing listener costs a log line, never the decision. */
    private void tell(String jobId, Decided decided, long now) {
        try {
            listener.decided(jobId, decided.events(), now);
        } catch (RuntimeException e) {
            LOG.warn("The decision listener failed on job {}: {}", jobId, e.toString());
        }
    }
}
