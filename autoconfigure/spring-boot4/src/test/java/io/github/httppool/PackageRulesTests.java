package io.github.httppool;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The library's packages form layers: {@code pool} at the bottom, each concern above it
 * ({@code metrics}, {@code warmup}, {@code actuate}) depending only downwards,
 * {@code config} resolving the settings into pools, and {@code autoconfigure} on top wiring
 * the beans. A package named {@code internal} belongs to the layer of its parent package.
 */
class PackageRulesTests {

	private static JavaClasses classes;

	@BeforeAll
	static void importLibraryClasses() {
		classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.withImportOption((location) -> !location.contains("-tests.jar"))
			.importPackages("io.github.httppool");
	}

	@Test
	void eachLayerDependsOnlyOnTheLayersBelowIt() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("pool").definedBy("io.github.httppool.pool..")
			.layer("metrics").definedBy("io.github.httppool.metrics..")
			.layer("warmup").definedBy("io.github.httppool.warmup..")
			.layer("advisor").definedBy("io.github.httppool.advisor..")
			.layer("actuate").definedBy("io.github.httppool.actuate..")
			.layer("config").definedBy("io.github.httppool.config..")
			.layer("autoconfigure").definedBy("io.github.httppool.autoconfigure..")
			.whereLayer("autoconfigure").mayNotBeAccessedByAnyLayer()
			.whereLayer("config").mayOnlyBeAccessedByLayers("actuate", "autoconfigure")
			.whereLayer("metrics").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("warmup").mayOnlyBeAccessedByLayers("config", "autoconfigure")
			.whereLayer("actuate").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("advisor").mayOnlyBeAccessedByLayers("actuate", "autoconfigure")
			.whereLayer("pool").mayOnlyBeAccessedByLayers("metrics", "warmup", "advisor", "actuate", "config",
					"autoconfigure")
			.check(classes);
	}

	@Test
	void noPackagesDependOnEachOtherInACycle() {
		slices().assignedFrom(new PackagesWithTheirInternals()).should().beFreeOfCycles().check(classes);
	}

	@Test
	void theAutoConfigurationRootDoesNotReachIntoItsConcernPackages() {
		noClasses().that()
			.resideInAnyPackage("io.github.httppool.autoconfigure", "io.github.httppool.autoconfigure.internal..")
			.should()
			.dependOnClassesThat(resideInAPackage("io.github.httppool.autoconfigure.*..")
				.and(not(resideInAPackage("io.github.httppool.autoconfigure.internal.."))))
			.check(classes);
	}

	@Test
	void onlyTheMeterBinderAndItsWiringUseMicrometerMeters() {
		noClasses().that()
			.resideOutsideOfPackages("io.github.httppool.metrics..", "io.github.httppool.config..",
					"io.github.httppool.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.micrometer.core..")
			.check(classes);
	}

	@Test
	void onlyTheActuatorPackagesUseSpringBootActuator() {
		noClasses().that()
			.resideOutsideOfPackages("io.github.httppool.actuate..", "io.github.httppool.autoconfigure.actuate..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot.actuate..")
			.check(classes);
	}

	@Test
	void thePublicPoolApiDependsOnNoInternalPackage() {
		noClasses().that()
			.resideInAPackage("io.github.httppool.pool")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.github.httppool..internal..")
			.check(classes);
	}

	@Test
	void thePoolUsesNoAutoConfigurationOrBinding() {
		noClasses().that()
			.resideInAPackage("io.github.httppool.pool..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot.autoconfigure..", "org.springframework.boot.context.properties..")
			.check(classes);
	}

	/**
	 * One slice per package of the library, a package named {@code internal} counted with
	 * its parent: {@code pool} and {@code pool.internal} are one slice.
	 */
	private static final class PackagesWithTheirInternals implements SliceAssignment {

		private static final String ROOT = "io.github.httppool.";

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			String packageName = javaClass.getPackageName();
			if (!packageName.startsWith(ROOT)) {
				return SliceIdentifier.ignore();
			}
			return SliceIdentifier.of(packageName.substring(ROOT.length()).replaceAll("\\.internal(\\..*)?$", ""));
		}

		@Override
		public String getDescription() {
			return "packages of io.github.httppool, each with its internal package";
		}

	}

}
