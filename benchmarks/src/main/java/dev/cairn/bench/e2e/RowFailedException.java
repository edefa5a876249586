package dev.cairn.bench.e2e;

/** A row of the benchmark that did not complete (dead letter, abort, time-out): its table cell says why. */
final class RowFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RowFailedException(String message) {
        super(message);
    }
}
