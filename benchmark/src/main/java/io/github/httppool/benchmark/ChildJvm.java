package io.github.httppool.benchmark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command of a child JVM that runs a class of the benchmark on the running Java, from the same jar or class
 * path: through the executable jar's launcher when the benchmark runs from it.
 */
public final class ChildJvm {

	private static final String PROPERTIES_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

	private ChildJvm() {
	}

	/**
	 * The command that runs {@code mainClass} in a child JVM.
	 * @param mainClass the name of the class whose {@code main} the child runs
	 * @param options the child's JVM options
	 * @return the command, to which the program's arguments may be added
	 */
	public static List<String> command(String mainClass, List<String> options) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(options);
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		if (ChildJvm.class.getClassLoader() != ClassLoader.getSystemClassLoader()) {
			command.add("-Dloader.main=" + mainClass);
			command.add(PROPERTIES_LAUNCHER);
		}
		else {
			command.add(mainClass);
		}
		return command;
	}

}
