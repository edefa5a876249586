package dev.cairn.cli;

import dev.cairn.core.contract.InputChecks;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command.Remove;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * {@code cairn remove --job J}: produces a {@code RemoveJob} and waits for the coordinator's outcome, as
 * {@code cairn resume} does. The coordinator removes only a job that is not RUNNING; its state leaves the stores and
 * views, its journal and its files stay, and its checkpoint ids go on if the id is registered again.
 */
@Command(name = "remove",
        description = "Removes a job that is not RUNNING (stop it with a savepoint, or cancel it, first): its state "
                + "leaves the coordinator's stores and views, while its journal keeps its history (cairn audit) and "
                + "its checkpoint and savepoint files stay where they are. The id may be registered again; its "
                + "checkpoint ids then go on above the removed job's. Produces a RemoveJob and waits for the "
                + "coordinator's outcome.")
final class RemoveCommand extends AwaitedSubcommand {

    @Override
    AwaitedRequest request() {
        List<String> problems = commonProblems();
        RemoveJob event = RemoveJob.newBuilder().setJobId(jobId).setRequestId(await.requestIdOrNew())
                .setRequester(CairnCli.REQUESTER).setTimestampMs(cli.nowMs()).build();
        if (problems.isEmpty()) {
            InputChecks.problem(new Remove(event), InputLimits.DEFAULTS).ifPresent(problems::add);
        }
        CairnCli.requireNoProblems(spec, problems);
        return new AwaitedRequest(jobId, event.getRequestId(), new RequestEnvelope(event),
                "the removal of the job (refused while it is RUNNING)", RemoveCommand::removed);
    }

    /** What a COMPLETED removal means: its outcome names the newest checkpoint id the job used, if any. */
    private static String removed(RequestOutcome outcome) {
        Long last = outcome.getCheckpointId();
        return "Removed: job '" + outcome.getJobId() + "' is gone from the coordinator's stores and views; its "
                + "journal keeps its history (cairn audit) and its checkpoint and savepoint files stay where they are. "
                + (last == null ? "Registered again, it starts with checkpoint id 1."
                        : "Its checkpoint ids went up to " + last + "; registered again, it takes ids from "
                                + (last + 1) + " on.");
    }
}
