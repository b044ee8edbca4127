package io.github.httppool.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;

/**
 * Records the name of every observation that stops, for tests that check which
 * observations a call (or the warm-up) produced.
 */
public class RecordingObservationHandler implements ObservationHandler<Observation.Context> {

	private final List<String> names = new CopyOnWriteArrayList<>();

	/**
	 * Return the names of the observations stopped so far, in order.
	 * @return the names
	 */
	public List<String> names() {
		return this.names;
	}

	@Override
	public void onStop(Observation.Context context) {
		this.names.add(context.getName());
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return true;
	}

}
