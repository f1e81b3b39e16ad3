// A tab's start: the service the page hands it, and the page title "<tab> · <service>" (the
// overview's: the service's name alone), the tab's label read from the one tab list.
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { useServiceDetail, type ServiceDetailContext } from './service-context.ts';
import { SERVICE_TABS } from './service-tabs.ts';
import { useTabLabel } from './tab-labels.ts';

export function useServiceTab(id: string): ServiceDetailContext {
  const tabLabel = useTabLabel();
  const context = useServiceDetail();
  const tab = SERVICE_TABS.find((candidate) => candidate.id === id);
  const name = context.service.name;
  useDocumentTitle(tab && tab.path !== '' ? `${tabLabel(tab)} · ${name}` : name);
  return context;
}
