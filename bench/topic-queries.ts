/**
 * The topic-query set of issue 23: how students describe what they need when they do not know a
 * title, each with what a librarian would accept for it. A paper is accepted when it carries one
 * of the arXiv categories named (any of them); a course (both course lists of the shared data are
 * imported as courses) when one of its subjects (the list's section or subsection) is named.
 *
 * Written before the hybrid ranking existed and before looking at any title, abstract or course
 * in the data: the queries come from the topics of a university's computing, physics and
 * mathematics teaching, phrased as people type them into a library's search box (plain words,
 * "papers on …", questions, no field names). Only the judgements use the data's vocabulary (its
 * category codes and section names), as a librarian's would. Never edit a case to match an answer.
 */

/** One descriptive query and what would be accepted for it. */
export interface TopicQuery {
  q: string;
  /** arXiv categories a paper must carry one of. */
  papers?: readonly string[];
  /** Course subjects (sections) a course must carry one of. */
  courses?: readonly string[];
}

const DEEP_LEARNING = ['cs.LG', 'cs.NE', 'stat.ML', 'cs.AI'];
const ML_COURSES = ['Machine Learning', 'Deep Learning', 'Artificial Intelligence'];

/** The set: 68 queries. */
export const TOPIC_QUERIES: readonly TopicQuery[] = [
  { q: 'research about neural networks', papers: DEEP_LEARNING, courses: ML_COURSES },
  { q: 'books about AI', papers: ['cs.AI', 'cs.LG'], courses: ML_COURSES },
  { q: 'how do computers understand human language', papers: ['cs.CL'] },
  { q: 'teaching robots to walk', papers: ['cs.RO'], courses: ['Robotics'] },
  { q: 'detecting objects in photos', papers: ['cs.CV'], courses: ['Computer Vision'] },
  { q: 'papers on reinforcement learning for robots', papers: ['cs.RO'], courses: ['Robotics'] },
  { q: 'dark matter and galaxies', papers: ['astro-ph', 'astro-ph.CO', 'astro-ph.GA'] },
  { q: 'black holes and gravitational waves', papers: ['gr-qc', 'astro-ph', 'hep-th'] },
  { q: 'superconductivity in materials', papers: ['cond-mat.supr-con'] },
  { q: 'quantum computers and qubits', papers: ['quant-ph'], courses: ['Quantum Computing'] },
  {
    q: 'particle physics beyond the standard model',
    papers: ['hep-ph', 'hep-th', 'hep-ex', 'hep-lat'],
  },
  { q: 'prime numbers', papers: ['math.NT'] },
  { q: 'probability and random walks', papers: ['math.PR'] },
  { q: 'curved surfaces in geometry', papers: ['math.DG', 'math.AG', 'math.GT', 'math.MG'] },
  { q: 'speech recognition', papers: ['eess.AS', 'cs.SD', 'cs.CL'] },
  { q: 'making music with computers', papers: ['cs.SD', 'eess.AS'] },
  { q: 'generating pictures from a text prompt', papers: ['cs.CV', 'cs.GR'] },
  {
    q: '3d rendering and computer graphics',
    papers: ['cs.GR'],
    courses: ['Graphics Programming', 'Game Development'],
  },
  {
    q: 'protecting computers from hackers',
    papers: ['cs.CR'],
    courses: ['Security', 'Security & Privacy', 'Cryptography'],
  },
  {
    q: 'encryption basics',
    papers: ['cs.CR'],
    courses: ['Cryptography', 'Security', 'Security & Privacy'],
  },
  { q: 'learn to build websites', courses: ['Web Development', 'HTML and CSS', 'JavaScript'] },
  { q: 'python for complete beginners', courses: ['Python'] },
  { q: 'how databases store data', papers: ['cs.DB'], courses: ['Databases', 'Database'] },
  {
    q: 'statistics and data analysis course',
    papers: ['stat.ME', 'stat.AP', 'stat.CO'],
    courses: ['Data Science', 'R'],
  },
  {
    q: 'making apps for phones',
    courses: ['Android', 'iOS', 'Flutter', 'Kotlin', 'Swift', 'Dart', 'Windows Phone'],
  },
  { q: 'how the internet works', papers: ['cs.NI'], courses: ['Networking'] },
  { q: 'operating system internals', papers: ['cs.OS'], courses: ['Operating Systems'] },
  { q: 'writing my own compiler', papers: ['cs.PL'], courses: ['Compilers', 'Compiler Design'] },
  {
    q: 'sorting algorithms and complexity',
    papers: ['cs.DS', 'cs.CC'],
    courses: ['Algorithms & Data Structures', 'Theoretical Computer Science', 'Theory'],
  },
  {
    q: 'deploying apps to the cloud',
    papers: ['cs.DC'],
    courses: ['Cloud Computing', 'DevOps', 'Docker', 'Kubernetes', 'Containers', 'Terraform'],
  },
  { q: 'making video games', courses: ['Game Development'] },
  { q: 'keeping track of changes to my code', courses: ['Git', 'Version Control Systems'] },
  { q: 'chatbots that answer questions', papers: ['cs.CL', 'cs.AI'] },
  { q: 'recommending products to shoppers', papers: ['cs.IR'] },
  {
    q: 'how search engines rank documents',
    papers: ['cs.IR'],
    courses: ['Information Retrieval', 'Search Engines'],
  },
  {
    q: 'cryptocurrency and smart contracts',
    papers: ['cs.CR'],
    courses: ['Blockchain', 'Solidity', 'Web3'],
  },
  { q: 'translating text between languages automatically', papers: ['cs.CL'] },
  { q: 'self driving cars seeing the road', papers: ['cs.CV', 'cs.RO'] },
  { q: 'medical image analysis', papers: ['cs.CV', 'eess.IV'] },
  { q: 'recognising faces in video', papers: ['cs.CV'] },
  { q: 'turbulence and fluid flow', papers: ['physics.flu-dyn', 'nlin.CD'] },
  { q: 'lasers and light', papers: ['physics.optics', 'quant-ph', 'physics.atom-ph'] },
  { q: 'chaos theory', papers: ['nlin.CD', 'math.DS'] },
  { q: 'neutron stars', papers: ['astro-ph', 'nucl-th', 'astro-ph.HE'] },
  { q: 'structure of atomic nuclei', papers: ['nucl-th', 'nucl-ex'] },
  { q: 'analysing social networks', papers: ['cs.SI', 'physics.soc-ph'] },
  {
    q: 'stock market models',
    papers: ['q-fin.ST', 'q-fin.GN', 'q-fin.PR', 'q-fin.CP', 'q-fin.TR', 'q-fin.RM'],
  },
  {
    q: 'genes and proteins',
    papers: ['q-bio.BM', 'q-bio.MN', 'q-bio.GN', 'q-bio.QM', 'q-bio.CB', 'q-bio.SC'],
  },
  { q: 'how the brain processes information', papers: ['q-bio.NC', 'cs.NE'] },
  { q: 'optimization methods for training models', papers: ['math.OC', 'cs.LG', 'stat.ML'] },
  {
    q: 'learning functional programming',
    papers: ['cs.PL'],
    courses: ['Haskell', 'OCaml', 'Clojure', 'Scala', 'Programming Paradigms'],
  },
  {
    q: 'designing large software systems',
    papers: ['cs.SE'],
    courses: ['System Design', 'Software Architecture', 'Software Engineering'],
  },
  { q: 'testing software and finding bugs', papers: ['cs.SE'], courses: ['Software Engineering'] },
  {
    q: 'parallel computing on gpus',
    papers: ['cs.DC'],
    courses: ['Cuda', 'Parallel Programming'],
  },
  { q: 'linux command line', courses: ['Linux', 'Bash / Shell'] },
  { q: 'learn java', courses: ['Java'] },
  {
    q: 'programming microcontrollers',
    courses: [
      'Embedded Systems',
      'PLC - Programmable logic controllers',
      'Assembly',
      'Digital Electronics',
    ],
  },
  { q: 'summarising long documents automatically', papers: ['cs.CL'] },
  {
    q: 'graph algorithms',
    papers: ['cs.DS', 'math.CO', 'cs.DM'],
    courses: ['Graph Theory', 'Algorithms & Data Structures'],
  },
  {
    q: 'how does a cpu work',
    papers: ['cs.AR'],
    courses: ['Computer Organization and Architecture', 'Digital Electronics', 'Assembly'],
  },
  { q: 'string theory', papers: ['hep-th'] },
  {
    q: 'the early universe and the cosmic microwave background',
    papers: ['astro-ph', 'astro-ph.CO', 'gr-qc'],
  },
  { q: 'linear algebra and calculus textbooks', courses: ['Mathematics'] },
  {
    q: 'statistical methods for experiments',
    papers: ['stat.ME', 'stat.TH', 'math.ST', 'stat.AP'],
  },
  {
    q: 'user interface design',
    papers: ['cs.HC'],
    courses: ['UI/UX', 'Graphical User Interfaces'],
  },
  { q: 'teaching computers to play games', papers: ['cs.AI', 'cs.LG', 'cs.GT'] },
  { q: 'spotting fake news', papers: ['cs.CL', 'cs.SI', 'cs.CY'] },
  {
    q: 'privacy of personal data',
    papers: ['cs.CR', 'cs.CY'],
    courses: ['Security & Privacy', 'Security'],
  },
];

/** Whether an item is what a librarian would accept for the query. */
export function accepted(
  query: TopicQuery,
  item: { kind: string; subjects: readonly string[] },
): boolean {
  const named =
    item.kind === 'paper' ? query.papers : item.kind === 'course' ? query.courses : undefined;
  if (!named) return false;
  const wanted = new Set(named.map((subject) => subject.toLowerCase()));
  return item.subjects.some((subject) => wanted.has(subject.toLowerCase()));
}
