import ProductCatalog
import ProductCatalogPostgres

/// The sentence the command line prints for a library error, naming its own options; nil for
/// errors that are already the command line's (ArgumentParser's, ValidationError).
func commandMessage(for error: any Error) -> String? {
    switch error {
    case let error as ImportError: error.commandMessage
    case let error as CatalogError: error.commandMessage
    case let error as HeaderMappingError: error.commandMessage
    case let error as EngineError: error.commandMessage
    case let error as CollectionError: error.commandMessage
    case let error as PostgresCatalogError: error.commandMessage
    case is CursorOfAnotherBuild:
        "The catalog was replaced by an import since that page was printed, so --after names no place in it; search again without --after."
    case let error as EditError:
        if case .collection(let inner) = error { inner.commandMessage } else { error.description }
    default: nil
    }
}
