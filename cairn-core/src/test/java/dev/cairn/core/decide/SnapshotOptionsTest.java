package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.decline;
import static dev.cairn.core.testing.Fixtures.overrides;
import static dev.cairn.core.testing.Fixtures.request;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static dev.cairn.core.testing.Fixtures.withOptions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestQueued;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.TriggerRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Snapshot options resolved from the job's config and a request's overrides, as Flink's
 * {@code CheckpointOptions.forConfig} resolves them, and carried by every event of the checkpoint.
 */
class SnapshotOptionsTest {

    private static SnapshotOptions options(BackupType backup, SavepointFormat format, PostCheckpointAction action,
            AlignmentType alignment, long alignedTimeoutMs) {
        return new SnapshotOptions(backup, format, action, alignment, alignedTimeoutMs);
    }

    private static SnapshotOptions checkpoint(AlignmentType alignment, long alignedTimeoutMs) {
        return options(BackupType.FULL, SavepointFormat.CANONICAL, PostCheckpointAction.NONE, alignment,
                alignedTimeoutMs);
    }

    /** The options the periodic checkpoint of a job with this config is triggered with. */
    private static SnapshotOptions periodicOptions(CheckpointConfig.Builder config) {
        return Scenario.runningJob(spec(config), 1000).when(tick(), 1000).single(CheckpointTriggered.class)
                .getOptions();
    }

    /** The options a request of a job with this config is triggered with. */
    private static SnapshotOptions requestOptions(CheckpointConfig.Builder config, Command.RequestTrigger request) {
        return Scenario.runningJob(spec(config), 1000).when(request, 10).single(CheckpointTriggered.class)
                .getOptions();
    }

    /** Flink's CheckpointOptionsTest#testCheckpointNeedsAlignment: an exactly-once checkpoint aligns, no timeout. */
    @Test
    void shouldTriggerAnAlignedCheckpointWithoutTimeoutByDefault() {
        assertThat(periodicOptions(config())).isEqualTo(checkpoint(AlignmentType.ALIGNED, -1));
    }

    /** Flink's CheckpointOptionsTest#testCheckpointIsTimeoutable: unaligned, aligned timeout 0: starts unaligned. */
    @Test
    void shouldStartUnalignedWhenUnalignedIsEnabledWithoutAlignedTimeout() {
        assertThat(periodicOptions(config().setUnalignedEnabled(true).setAlignedTimeoutMs(0)))
                .isEqualTo(checkpoint(AlignmentType.UNALIGNED, -1));
    }

    /** Flink's CheckpointOptions.forConfig: NO_ALIGNED_CHECKPOINT_TIME_OUT (Long.MAX_VALUE) starts unaligned too. */
    @Test
    void shouldStartUnalignedWhenTheAlignedTimeoutIsFlinksNoTimeout() {
        SnapshotOptions options = requestOptions(config().setUnalignedEnabled(true).setAlignedTimeoutMs(250),
                withOptions("r", CheckpointType.CHECKPOINT, overrides().setAlignedTimeoutMs(Long.MAX_VALUE).build()));

        assertThat(options).isEqualTo(checkpoint(AlignmentType.UNALIGNED, -1));
    }

    /** Flink resolves the options when the request runs: a spec replaced while it waits gives it the new config. */
    @Test
    void shouldResolveAQueuedRequestsOptionsWithTheConfigOfWhenItRuns() {
        Scenario scenario = Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000).and(tick(), 1000)
                .and(new Command.RequestTrigger(request("waits", CheckpointType.CHECKPOINT, null)), 1100);
        assertThat(scenario.job(JOB).getQueue()).extracting(q -> q.getRequestId()).containsExactly("waits");

        Then then = scenario.when(new Command.RegisterJob(spec(config().setTimeoutMs(10_000).setUnalignedEnabled(true)),
                0.0), 1200);

        assertThat(then.all(CheckpointTriggered.class)).filteredOn(t -> "waits".equals(t.getRequestId()))
                .singleElement().satisfies(t -> assertThat(t.getOptions()).isEqualTo(
                        checkpoint(AlignmentType.UNALIGNED, -1)));
    }

    /** Flink's CheckpointOptionsTest#testCheckpointIsTimeoutable: an aligned timeout makes it aligned, timeoutable. */
    @Test
    void shouldAlignWithTheTimeoutWhenUnalignedIsEnabledWithAnAlignedTimeout() {
        assertThat(periodicOptions(config().setUnalignedEnabled(true).setAlignedTimeoutMs(250)))
                .isEqualTo(checkpoint(AlignmentType.ALIGNED, 250));
    }

    /** Flink's CheckpointOptions.forConfig: without unaligned checkpoints the aligned timeout means nothing. */
    @Test
    void shouldIgnoreTheAlignedTimeoutWhenUnalignedIsDisabled() {
        assertThat(periodicOptions(config().setUnalignedEnabled(false).setAlignedTimeoutMs(250)))
                .isEqualTo(checkpoint(AlignmentType.ALIGNED, -1));
    }

    /** Flink's CheckpointOptionsTest#testSavepointNeedsAlignment: a savepoint is aligned even in an unaligned job. */
    @Test
    void shouldAlignASavepointWithoutTimeoutEvenWhenUnalignedIsEnabled() {
        SnapshotOptions options = requestOptions(config().setUnalignedEnabled(true).setAlignedTimeoutMs(250),
                savepointRequest("sp", null));

        assertThat(options).isEqualTo(options(BackupType.FULL, SavepointFormat.CANONICAL, PostCheckpointAction.NONE,
                AlignmentType.ALIGNED, -1));
    }

    /** Flink's CheckpointOptions.notExactlyOnce: an at-least-once job never aligns, whatever it snapshots. */
    @ParameterizedTest
    @EnumSource(CheckpointType.class)
    void shouldUseAtLeastOnceBarriersInAnAtLeastOnceJob(CheckpointType type) {
        SnapshotOptions options = requestOptions(config().setExactlyOnce(false).setUnalignedEnabled(true),
                new Command.RequestTrigger(request("r", type, true)));

        assertThat(options.getAlignment()).isEqualTo(AlignmentType.AT_LEAST_ONCE);
        assertThat(options.getAlignedTimeoutMs()).isEqualTo(-1);
    }

    static Stream<Arguments> alignmentOverrides() {
        return Stream.of(
                Arguments.of(false, overrides().setUnalignedEnabled(true), checkpoint(AlignmentType.UNALIGNED, -1)),
                Arguments.of(true, overrides().setUnalignedEnabled(false), checkpoint(AlignmentType.ALIGNED, -1)),
                Arguments.of(true, overrides().setAlignedTimeoutMs(40L), checkpoint(AlignmentType.ALIGNED, 40)),
                Arguments.of(false, overrides().setUnalignedEnabled(true).setAlignedTimeoutMs(40L),
                        checkpoint(AlignmentType.ALIGNED, 40)),
                Arguments.of(true, overrides(), checkpoint(AlignmentType.UNALIGNED, -1)));
    }

    /** Flink's CheckpointOptions.forConfig, fed with a request's overrides where it has them. */
    @ParameterizedTest(name = "job unaligned {0}, overrides {1}")
    @MethodSource("alignmentOverrides")
    void shouldTakeTheRequestsAlignmentOverridesOverTheJobs(boolean jobUnaligned, RequestedOptions.Builder requested,
            SnapshotOptions expected) {
        SnapshotOptions options = requestOptions(config().setUnalignedEnabled(jobUnaligned),
                withOptions("r", CheckpointType.CHECKPOINT, requested.build()));

        assertThat(options).isEqualTo(expected);
    }

    /** Flink's CheckpointCoordinator#triggerTasks: incremental unless the checkpoint is forced to be full. */
    @Test
    void shouldTakeTheJobsBackupTypeForCheckpointsUnlessTheRequestOverridesIt() {
        CheckpointConfig.Builder incremental = config().setBackupType(BackupType.INCREMENTAL);

        assertThat(periodicOptions(incremental).getBackupType()).isEqualTo(BackupType.INCREMENTAL);
        assertThat(requestOptions(incremental, withOptions("full", CheckpointType.CHECKPOINT,
                overrides().setBackupType(BackupType.FULL).build())).getBackupType()).isEqualTo(BackupType.FULL);
    }

    /** Flink's SavepointFormatType: the job's default format unless the savepoint asks for another. */
    @Test
    void shouldTakeTheJobsSavepointFormatForSavepointsUnlessTheRequestOverridesIt() {
        CheckpointConfig.Builder nativeFormat = config().setSavepointFormat(SavepointFormat.NATIVE)
                .setBackupType(BackupType.INCREMENTAL);

        SnapshotOptions byDefault = requestOptions(nativeFormat, savepointRequest("sp", null));
        SnapshotOptions canonical = requestOptions(nativeFormat, withOptions("sp", CheckpointType.SAVEPOINT,
                overrides().setSavepointFormat(SavepointFormat.CANONICAL).build()));

        assertThat(byDefault.getSavepointFormat()).isEqualTo(SavepointFormat.NATIVE);
        assertThat(byDefault.getBackupType()).as("a savepoint is self-contained").isEqualTo(BackupType.FULL);
        assertThat(canonical.getSavepointFormat()).isEqualTo(SavepointFormat.CANONICAL);
    }

    static Stream<Arguments> misfits() {
        TriggerRequest backupOnSavepoint = request("r", CheckpointType.SAVEPOINT, null);
        backupOnSavepoint.setOptions(overrides().setBackupType(BackupType.INCREMENTAL).build());
        TriggerRequest formatOnCheckpoint = request("r", CheckpointType.CHECKPOINT, null);
        formatOnCheckpoint.setOptions(overrides().setSavepointFormat(SavepointFormat.NATIVE).build());
        TriggerRequest negativeTimeout = request("r", CheckpointType.CHECKPOINT, null);
        negativeTimeout.setOptions(overrides().setAlignedTimeoutMs(-1L).build());
        TriggerRequest stopCheckpoint = request("r", CheckpointType.CHECKPOINT, null);
        stopCheckpoint.setPostCheckpointAction(PostCheckpointAction.TERMINATE);
        return Stream.of(
                Arguments.of("backupType on a savepoint", backupOnSavepoint, "backupType"),
                Arguments.of("savepointFormat on a checkpoint", formatOnCheckpoint, "savepointFormat"),
                Arguments.of("negative aligned timeout", negativeTimeout, "alignedTimeoutMs must be >= 0"),
                Arguments.of("a stop that is a checkpoint", stopCheckpoint, "needs a SAVEPOINT request"));
    }

    /** Flink's CheckpointOptions preconditions (savepoints can not be unaligned, and so on), as a requester's error. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("misfits")
    void shouldFailARequestWhoseOptionsDoNotFitItWithoutQueueingIt(String what, TriggerRequest request,
            String message) {
        Then then = Scenario.runningJob(spec(), 1000).when(new Command.RequestTrigger(request), 10);

        then.thenTypes(TriggerRequest.class, RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.INVALID_REQUEST);
        assertThat(outcome.getMessage()).contains(message);
        assertThat(outcome.getCheckpointId()).isNull();
        assertThat(then.job(JOB).getQueue()).isEmpty();
        assertThat(then.job(JOB).getNextCheckpointId()).as("no id consumed").isEqualTo(1);
    }

    /** The boundaries of the misfits: a zero timeout and an explicit NONE action are a plain checkpoint. */
    @Test
    void shouldAcceptAZeroAlignedTimeoutAndNoPostCheckpointActionOnACheckpoint() {
        TriggerRequest request = request("r", CheckpointType.CHECKPOINT, null);
        request.setPostCheckpointAction(PostCheckpointAction.NONE);
        request.setOptions(overrides().setAlignedTimeoutMs(0L).setUnalignedEnabled(true).build());

        assertThat(requestOptions(config(), new Command.RequestTrigger(request)))
                .isEqualTo(checkpoint(AlignmentType.UNALIGNED, -1));
    }

    /**
     * Flink builds CheckpointOptions when it triggers, PendingCheckpoint and CompletedCheckpoint keep them: a queued
     * request keeps its overrides, resolved against the config when it runs, and its checkpoint keeps the result.
     */
    @Test
    void shouldCarryTheResolvedOptionsFromTheQueueToTheTriggerTheCompletionAndTheHistory() {
        SnapshotOptions expected = checkpoint(AlignmentType.ALIGNED, 75);
        RequestedOptions requested = overrides().setUnalignedEnabled(true).setAlignedTimeoutMs(75L).build();
        Scenario scenario = Scenario.runningJob(spec(config().setTimeoutMs(10_000)), 1000).and(tick(), 1000);

        Then queued = scenario.when(withOptions("r", CheckpointType.CHECKPOINT, requested), 1100);
        assertThat(queued.single(RequestQueued.class).getRequestedOptions()).isEqualTo(requested);
        assertThat(queued.job(JOB).getQueue().get(0).getRequestedOptions()).isEqualTo(requested);

        scenario.ackAll(JOB, 1, 1200);
        assertThat(scenario.job(JOB).getPending()).singleElement()
                .satisfies(p -> assertThat(p.getOptions()).isEqualTo(expected));

        Scenario completed = scenario.ackAll(JOB, 2, 1300);
        assertThat(completed.state().retained(JOB).orElseThrow().getCheckpoints()).singleElement()
                .satisfies(c -> assertThat(c.getOptions()).isEqualTo(expected));
        assertThat(completed.history(JOB)).extracting(CheckpointSummary::getOptions)
                .containsExactly(checkpoint(AlignmentType.ALIGNED, -1), expected);
    }

    /** Flink's CheckpointCoordinator#abortPendingCheckpoint: the abort names the checkpoint the tasks were told of. */
    @Test
    void shouldCarryTheOptionsOnAnAbortAndOnItsHistorySummary() {
        Scenario scenario = Scenario.runningJob(spec(config().setUnalignedEnabled(true)), 1000).and(tick(), 1000);

        Then then = scenario.when(decline(1, SOURCE, 0), 1100);

        SnapshotOptions expected = checkpoint(AlignmentType.UNALIGNED, -1);
        assertThat(then.single(CheckpointAborted.class).getOptions()).isEqualTo(expected);
        assertThat(then.history(JOB)).singleElement().satisfies(s -> assertThat(s.getOptions()).isEqualTo(expected));
    }

    /** A completion of a checkpoint triggered with options carries them: a sidecar commits what it snapshotted. */
    @Test
    void shouldCarryTheOptionsOfAManualCheckpointOnItsCompletion() {
        Scenario scenario = Scenario.runningJob(spec(config().setBackupType(BackupType.INCREMENTAL)), 1000)
                .and(checkpointRequest("r"), 10)
                .and(Fixtures.acknowledge(1, SOURCE, 0), 20)
                .and(Fixtures.acknowledge(1, SOURCE, 1), 20);

        Then then = scenario.when(Fixtures.acknowledge(1, Fixtures.SINK, 0), 30);

        assertThat(then.single(CheckpointCompleted.class).getOptions()).isEqualTo(options(BackupType.INCREMENTAL,
                SavepointFormat.CANONICAL, PostCheckpointAction.NONE, AlignmentType.ALIGNED, -1));
    }
}
