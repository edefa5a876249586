package dev.cairn.sidecar.core;

import static dev.cairn.sidecar.core.ControlEvents.COORDINATOR_SIDE;
import static dev.cairn.sidecar.core.ControlEvents.ME;
import static dev.cairn.sidecar.core.ControlEvents.PARTICIPANT;
import static dev.cairn.sidecar.core.ControlEvents.aborted;
import static dev.cairn.sidecar.core.ControlEvents.completed;
import static dev.cairn.sidecar.core.ControlEvents.participantsTriggered;
import static dev.cairn.sidecar.core.ControlEvents.savepointCompleted;
import static dev.cairn.sidecar.core.ControlEvents.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.PostCheckpointAction;
import dev.cairn.sidecar.core.SidecarAction.NotifyAborted;
import dev.cairn.sidecar.core.SidecarAction.NotifyComplete;
import dev.cairn.sidecar.core.SidecarAction.PublishAck;
import dev.cairn.sidecar.core.SidecarAction.PublishDecline;
import dev.cairn.sidecar.core.SidecarAction.PublishFinished;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantAck;
import dev.cairn.sidecar.core.SidecarAction.PublishParticipantDecline;
import dev.cairn.sidecar.core.SidecarAction.StartSnapshot;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sidecar's rules hold for any interleaving of triggers, notifications and snapshot outcomes: the hook
 * runs one snapshot at a time, in trigger order, never for a checkpoint that already ended, and every
 * checkpoint gets at most one answer and at most one notification.
 */
class SidecarCorePropertiesTest {

    enum Step { TRIGGER, COMPLETE, ABORT, SUCCEED, FAIL, TIME_OUT, STALE_OUTCOME, FINISH, STOP }

    @Test
    void shouldKeepTheSidecarsPromisesWhenEventsInterleaveInAnyOrder() {
        runSeeds(ME);
    }

    @Test
    void shouldKeepTheSamePromisesWhenTheSidecarIsAParticipant() {
        runSeeds(COORDINATOR_SIDE);
    }

    private static void runSeeds(SidecarIdentity identity) {
        for (long seed = 0; seed < 2_000; seed++) {
            Random random = new Random(seed);
            List<Step> steps = new ArrayList<>();
            int length = 1 + random.nextInt(80);
            for (int i = 0; i < length; i++) {
                steps.add(Step.values()[random.nextInt(Step.values().length)]);
            }
            try {
                run(identity, steps, random);
            } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + ", steps " + steps + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Runs the steps, checking after each: one snapshot at a time, in trigger order, none for an ended
     * checkpoint nor after the subtask finished or the job stopped; at most one answer and one notification per
     * checkpoint, and at most one TaskFinished.
     */
    private static void run(SidecarIdentity identity, List<Step> steps, Random random) {
        Simulation simulation = new Simulation(identity, random);
        for (Step step : steps) {
            simulation.check(simulation.feed(step));
        }
    }

    /** A sidecar core, the clock and hook it runs against, and what it has done so far. */
    private static final class Simulation {
        private final SidecarCore core;
        private final boolean participant;
        private final Random random;
        private final Map<Long, Integer> answers = new HashMap<>();
        private final Map<Long, Integer> notifications = new HashMap<>();
        private final Set<Long> endedIds = new HashSet<>();
        private int finishes;
        private boolean snapshotsOver;
        private long nextId = 1;
        private long lastStarted;
        private Long hookBusyWith;
        private long now;

        Simulation(SidecarIdentity identity, Random random) {
            this.core = new SidecarCore(identity, Duration.ofSeconds(5));
            this.participant = identity instanceof Participant;
            this.random = random;
        }

        /** Feeds one step to the core; a step that cannot happen now (no snapshot running, ...) does nothing. */
        List<SidecarAction> feed(Step step) {
            now += 10;
            return switch (step) {
                case TRIGGER -> participant
                        ? core.onParticipantsTriggered(participantsTriggered(nextId++, now, PARTICIPANT), now)
                        : core.onTrigger(trigger(nextId++, now), now);
                case FINISH -> finish();
                case STOP -> {
                    snapshotsOver = true;
                    yield core.onCompleted(savepointCompleted(endSomeCheckpoint(), PostCheckpointAction.SUSPEND));
                }
                case COMPLETE -> {
                    long id = endSomeCheckpoint();
                    yield core.onCompleted(completed(id, id - 1));
                }
                case ABORT -> core.onAborted(aborted(endSomeCheckpoint(), -1));
                case SUCCEED, FAIL -> endRunningSnapshot(step == Step.SUCCEED);
                case TIME_OUT -> hookBusyWith == null ? List.of() : core.onSnapshotTimedOut(hookBusyWith, now);
                case STALE_OUTCOME -> staleOutcome();
            };
        }

        private List<SidecarAction> finish() {
            if (participant) {
                return List.of();
            }
            snapshotsOver = true;
            return core.onFinish(Optional.empty(), now);
        }

        /** Picks a checkpoint id (triggered or not yet) whose end the coordinator announces. */
        private long endSomeCheckpoint() {
            long id = 1 + random.nextInt((int) nextId);
            endedIds.add(id);
            return id;
        }

        private List<SidecarAction> endRunningSnapshot(boolean succeed) {
            if (hookBusyWith == null) {
                return List.of();
            }
            long id = hookBusyWith;
            hookBusyWith = null;
            return succeed ? core.onSnapshotSucceeded(id, SnapshotResult.of("f:/" + id, 1), now)
                    : core.onSnapshotFailed(id, new IOException("failed"), now);
        }

        /** A snapshot outcome for a checkpoint the hook is not working on. */
        private List<SidecarAction> staleOutcome() {
            long id = random.nextInt(100);
            if (hookBusyWith != null && hookBusyWith == id) {
                return List.of();
            }
            return core.onSnapshotSucceeded(id, SnapshotResult.of("f:/x", 1), now);
        }

        /** Records the actions and checks the promises over everything done so far. */
        void check(List<SidecarAction> actions) {
            for (SidecarAction action : actions) {
                record(action);
            }
            assertThat(answers.values()).as("answers per checkpoint").allMatch(count -> count == 1);
            assertThat(finishes).as("TaskFinished published").isLessThanOrEqualTo(1);
            assertThat(notifications.values()).as("notifications per checkpoint").allMatch(count -> count == 1);
        }

        private void record(SidecarAction action) {
            if (action instanceof StartSnapshot start) {
                started(start.request().checkpointId());
            } else if (action instanceof PublishAck ack) {
                answers.merge(ack.ack().getCheckpointId(), 1, Integer::sum);
            } else if (action instanceof PublishParticipantAck ack) {
                answers.merge(ack.ack().getCheckpointId(), 1, Integer::sum);
            } else if (action instanceof PublishParticipantDecline decline) {
                declined(decline.decline().getCheckpointId());
            } else if (action instanceof PublishDecline decline) {
                declined(decline.decline().getCheckpointId());
            } else if (action instanceof PublishFinished) {
                finishes++;
            } else if (action instanceof NotifyComplete complete) {
                notifications.merge(complete.checkpointId(), 1, Integer::sum);
            } else if (action instanceof NotifyAborted abort) {
                notifications.merge(abort.checkpointId(), 1, Integer::sum);
            }
        }

        private void started(long id) {
            assertThat(hookBusyWith).as("a snapshot starts while the hook is busy").isNull();
            assertThat(id).as("snapshots start in trigger order").isGreaterThan(lastStarted);
            assertThat(endedIds).as("no snapshot for an ended checkpoint").doesNotContain(id);
            assertThat(snapshotsOver).as("no snapshot once finished or stopping").isFalse();
            hookBusyWith = id;
            lastStarted = id;
        }

        private void declined(long id) {
            answers.merge(id, 1, Integer::sum);
            assertThat(endedIds).as("no decline for an ended checkpoint").doesNotContain(id);
        }
    }
}
