import { DEMO_LOCATIONS, type DemoItem } from './types.ts';

const { main, science, law, reserve } = DEMO_LOCATIONS;

/**
 * Public-domain classics for the demo library: their titles, authors and first years of
 * publication are facts; the descriptions are our own words. Most have copies, spread over the
 * library's locations, and a few have every copy out on loan or in repair.
 */
export const DEMO_BOOKS: DemoItem[] = [
  // Science fiction
  {
    kind: 'book',
    source_id: 'book-the-war-of-the-worlds',
    holdings: [
      { copies: 2, location: science },
      { copies: 1, unavailable: 1, location: main },
    ],
    title: 'The War of the Worlds',
    authors: ['H. G. Wells'],
    year: 1898,
    subjects: ['fiction', 'science fiction', 'invasion', 'england'],
    description:
      'Cylinders from Mars land in the Surrey countryside, and a narrator flees across a collapsing England while the invaders’ war machines seem unstoppable.',
  },
  {
    kind: 'book',
    source_id: 'book-the-invisible-man',
    holdings: { copies: 1, location: science },
    title: 'The Invisible Man',
    authors: ['H. G. Wells'],
    year: 1897,
    subjects: ['fiction', 'science fiction', 'science'],
    description:
      'A brilliant and bad-tempered physicist makes himself unseen, then discovers that invisibility brings cold, danger and no way back.',
  },
  {
    kind: 'book',
    source_id: 'book-the-island-of-doctor-moreau',
    title: 'The Island of Doctor Moreau',
    authors: ['H. G. Wells'],
    year: 1896,
    subjects: ['fiction', 'science fiction', 'ethics', 'science'],
    description:
      'A shipwrecked man lands on a remote island where a disgraced surgeon reshapes animals into beings that almost pass for people.',
  },
  {
    kind: 'book',
    source_id: 'book-twenty-thousand-leagues',
    holdings: [
      { copies: 2, location: science },
      { copies: 1, inRepair: 1, location: science },
    ],
    title: 'Twenty Thousand Leagues Under the Seas',
    authors: ['Jules Verne'],
    year: 1870,
    subjects: ['fiction', 'science fiction', 'adventure', 'oceans'],
    description:
      'A marine biologist is taken aboard the submarine Nautilus and tours the ocean floor with its brooding and secretive commander, Captain Nemo.',
  },
  {
    kind: 'book',
    source_id: 'book-journey-to-the-centre-of-the-earth',
    holdings: { copies: 1, location: science },
    title: 'Journey to the Centre of the Earth',
    authors: ['Jules Verne'],
    year: 1864,
    subjects: ['fiction', 'science fiction', 'adventure', 'geology'],
    description:
      'An impatient professor, his nephew and an Icelandic guide climb down an extinct volcano and find underground seas and long-lost creatures.',
  },
  {
    kind: 'book',
    source_id: 'book-the-lost-world',
    holdings: { copies: 2, location: main },
    title: 'The Lost World',
    authors: ['Arthur Conan Doyle'],
    year: 1912,
    subjects: ['fiction', 'science fiction', 'adventure', 'dinosaurs'],
    description:
      'The quarrelsome Professor Challenger leads an expedition to a South American plateau where dinosaurs and ape-men have survived.',
  },
  {
    kind: 'book',
    source_id: 'book-herland',
    holdings: { copies: 1, location: main },
    title: 'Herland',
    authors: ['Charlotte Perkins Gilman'],
    year: 1915,
    subjects: ['fiction', 'science fiction', 'utopia', 'feminism'],
    description:
      'Three American explorers stumble on a peaceful society made up only of women, and find their assumptions about the sexes taken apart one by one.',
  },
  {
    kind: 'book',
    source_id: 'book-a-princess-of-mars',
    title: 'A Princess of Mars',
    authors: ['Edgar Rice Burroughs'],
    year: 1917,
    subjects: ['fiction', 'science fiction', 'adventure'],
    description:
      'A Civil War veteran wakes up on Mars, where the low gravity makes him a champion among warring green giants and a captive princess.',
  },
  {
    kind: 'book',
    source_id: 'book-rur',
    holdings: { copies: 1, location: science },
    title: 'R.U.R. (Rossum’s Universal Robots)',
    authors: ['Karel Čapek'],
    year: 1920,
    subjects: ['fiction', 'science fiction', 'drama', 'robots'],
    description:
      'The play that gave us the word robot: a factory builds artificial workers for the whole world, until the workers decide they no longer need their makers.',
  },
  {
    kind: 'book',
    source_id: 'book-we',
    title: 'We',
    authors: ['Yevgeny Zamyatin'],
    year: 1924,
    subjects: ['fiction', 'science fiction', 'dystopia'],
    description:
      'In a glass city where every hour is scheduled and citizens are numbers, an engineer keeps a diary and begins to doubt the perfect state he serves.',
  },
  {
    kind: 'book',
    source_id: 'book-flatland',
    holdings: { copies: 2, location: science },
    title: 'Flatland: A Romance of Many Dimensions',
    authors: ['Edwin A. Abbott'],
    year: 1884,
    subjects: ['fiction', 'science fiction', 'mathematics', 'satire'],
    description:
      'A square living in a two-dimensional world is visited by a sphere, and struggles to explain a third dimension to neighbours ranked strictly by their number of sides.',
  },
  {
    kind: 'book',
    source_id: 'book-looking-backward',
    holdings: { copies: 1, location: law },
    title: 'Looking Backward: 2000–1887',
    authors: ['Edward Bellamy'],
    year: 1888,
    subjects: ['fiction', 'science fiction', 'utopia', 'economics'],
    description:
      'A Bostonian falls into a deep sleep and wakes in the year 2000 to find poverty abolished and the whole economy run as one national cooperative.',
  },
  {
    kind: 'book',
    source_id: 'book-erewhon',
    title: 'Erewhon',
    authors: ['Samuel Butler'],
    year: 1872,
    subjects: ['fiction', 'science fiction', 'satire', 'utopia'],
    description:
      'A traveller crosses a mountain range into a country where illness is punished as a crime, crime is treated as an illness, and machines have been banned.',
  },

  // Gothic and horror
  {
    kind: 'book',
    source_id: 'book-dracula',
    // Every copy is out on loan.
    holdings: { copies: 2, unavailable: 2, location: main },
    title: 'Dracula',
    authors: ['Bram Stoker'],
    year: 1897,
    subjects: ['fiction', 'gothic', 'horror', 'vampires'],
    description:
      'Told through diaries, letters and newspaper cuttings: a Transylvanian count moves to England, and a small band led by Professor Van Helsing sets out to stop him.',
  },
  {
    kind: 'book',
    source_id: 'book-the-picture-of-dorian-gray',
    holdings: [
      { copies: 2, location: main },
      { copies: 1, location: reserve },
    ],
    title: 'The Picture of Dorian Gray',
    authors: ['Oscar Wilde'],
    year: 1890,
    subjects: ['fiction', 'gothic', 'philosophy', 'art'],
    description:
      'A handsome young man wishes that his portrait would age instead of him; the painting records every cruelty while his face stays flawless.',
  },
  {
    kind: 'book',
    source_id: 'book-the-castle-of-otranto',
    title: 'The Castle of Otranto',
    authors: ['Horace Walpole'],
    year: 1764,
    subjects: ['fiction', 'gothic', 'horror'],
    description:
      'Often called the first gothic novel: a giant helmet falls from the sky on a wedding day, and a usurping prince’s family unravels among prophecies and secret passages.',
  },
  {
    kind: 'book',
    source_id: 'book-carmilla',
    holdings: { copies: 1, location: main },
    title: 'Carmilla',
    authors: ['J. Sheridan Le Fanu'],
    year: 1872,
    subjects: ['fiction', 'gothic', 'horror', 'vampires'],
    description:
      'A lonely girl in an Austrian castle welcomes a mysterious guest who becomes her closest friend, just as young women in the district begin to sicken and die.',
  },
  {
    kind: 'book',
    source_id: 'book-the-fall-of-the-house-of-usher',
    holdings: { copies: 1, location: main },
    title: 'The Fall of the House of Usher',
    authors: ['Edgar Allan Poe'],
    year: 1839,
    subjects: ['fiction', 'gothic', 'horror', 'short stories'],
    description:
      'A visitor to a decaying mansion watches his boyhood friend sink into dread, until the family and the house itself come to their end on one stormy night.',
  },
  {
    kind: 'book',
    source_id: 'book-wuthering-heights',
    holdings: [
      { copies: 2, location: main },
      { copies: 1, unavailable: 1, location: reserve },
    ],
    title: 'Wuthering Heights',
    authors: ['Emily Brontë'],
    year: 1847,
    subjects: ['fiction', 'gothic', 'romance', 'yorkshire'],
    description:
      'On the Yorkshire moors, the foundling Heathcliff and Catherine Earnshaw form a bond so fierce that its bitterness outlives them both and reaches the next generation.',
  },
  {
    kind: 'book',
    source_id: 'book-jane-eyre',
    holdings: { copies: 3, unavailable: 1, location: main },
    title: 'Jane Eyre',
    authors: ['Charlotte Brontë'],
    year: 1847,
    subjects: ['fiction', 'gothic', 'romance', 'coming of age'],
    description:
      'An orphaned governess with a strong sense of her own worth falls in love with her employer, Mr Rochester, whose house hides a secret on its top floor.',
  },
  {
    kind: 'book',
    source_id: 'book-the-turn-of-the-screw',
    holdings: { copies: 1, location: main },
    title: 'The Turn of the Screw',
    authors: ['Henry James'],
    year: 1898,
    subjects: ['fiction', 'gothic', 'ghost stories'],
    description:
      'A young governess becomes convinced that two ghosts are after the children in her care; the story never settles whether they are real.',
  },
  {
    kind: 'book',
    source_id: 'book-the-mysteries-of-udolpho',
    title: 'The Mysteries of Udolpho',
    authors: ['Ann Radcliffe'],
    year: 1794,
    subjects: ['fiction', 'gothic', 'romance'],
    description:
      'The orphaned Emily St. Aubert is shut away in a gloomy Apennine fortress by her scheming guardian, where every terror seems supernatural until it is explained.',
  },
  {
    kind: 'book',
    source_id: 'book-the-legend-of-sleepy-hollow',
    holdings: { copies: 1, location: main },
    title: 'The Legend of Sleepy Hollow',
    authors: ['Washington Irving'],
    year: 1820,
    subjects: ['fiction', 'gothic', 'ghost stories', 'short stories'],
    description:
      'The lanky schoolmaster Ichabod Crane courts a farmer’s daughter in a Dutch village of the Hudson Valley, and one night meets the Headless Horseman on the road home.',
  },
  {
    kind: 'book',
    source_id: 'book-the-phantom-of-the-opera',
    title: 'The Phantom of the Opera',
    authors: ['Gaston Leroux'],
    year: 1910,
    subjects: ['fiction', 'gothic', 'romance', 'music'],
    description:
      'A masked genius haunting the cellars of a great opera house coaches a young soprano to stardom, and will not let anyone else have her.',
  },

  // Novels of love and society
  {
    kind: 'book',
    source_id: 'book-north-and-south',
    holdings: { copies: 1, location: main },
    title: 'North and South',
    authors: ['Elizabeth Gaskell'],
    year: 1855,
    subjects: ['fiction', 'romance', 'industrial england', 'social classes'],
    description:
      'A clergyman’s daughter from the rural south moves to a northern mill town and clashes with a self-made factory owner over strikes, wages and each other.',
  },
  {
    kind: 'book',
    source_id: 'book-the-age-of-innocence',
    holdings: { copies: 2, location: main },
    title: 'The Age of Innocence',
    authors: ['Edith Wharton'],
    year: 1920,
    subjects: ['fiction', 'romance', 'new york', 'social classes'],
    description:
      'A well-connected New York lawyer, engaged to a proper young woman, falls for her unconventional cousin in a society that punishes anyone who steps out of line.',
  },
  {
    kind: 'book',
    source_id: 'book-anna-karenina',
    holdings: [
      { copies: 2, location: main },
      { copies: 1, inRepair: 1, location: main },
    ],
    title: 'Anna Karenina',
    authors: ['Leo Tolstoy'],
    year: 1878,
    subjects: ['fiction', 'romance', 'russia', 'marriage'],
    description:
      'A married woman of Russian high society risks everything for a cavalry officer, while a landowner on his estate searches for a life that makes sense.',
  },
  {
    kind: 'book',
    source_id: 'book-madame-bovary',
    holdings: { copies: 1, location: main },
    title: 'Madame Bovary',
    authors: ['Gustave Flaubert'],
    year: 1857,
    subjects: ['fiction', 'romance', 'realism', 'marriage'],
    description:
      'Bored by her decent but dull husband, a doctor’s wife in provincial Normandy chases the passion she has read about in novels and sinks into debt.',
  },
  {
    kind: 'book',
    source_id: 'book-a-room-with-a-view',
    holdings: { copies: 1, location: main },
    title: 'A Room with a View',
    authors: ['E. M. Forster'],
    year: 1908,
    subjects: ['fiction', 'romance', 'italy', 'social classes'],
    description:
      'On a trip to Florence, a young Englishwoman meets a frank and unconventional young man, and back home in Surrey must choose between him and a stuffy fiancé.',
  },
  {
    kind: 'book',
    source_id: 'book-the-scarlet-letter',
    holdings: { copies: 2, location: main },
    title: 'The Scarlet Letter',
    authors: ['Nathaniel Hawthorne'],
    year: 1850,
    subjects: ['fiction', 'romance', 'puritans', 'history'],
    description:
      'In Puritan Boston, Hester Prynne is made to wear a red letter A for adultery and refuses to name her child’s father, who stands among the town’s most respected men.',
  },
  {
    kind: 'book',
    source_id: 'book-far-from-the-madding-crowd',
    holdings: { copies: 1, location: main },
    title: 'Far from the Madding Crowd',
    authors: ['Thomas Hardy'],
    year: 1874,
    subjects: ['fiction', 'romance', 'rural england'],
    description:
      'Bathsheba Everdene runs her own farm in Wessex and is courted by a loyal shepherd, a lonely neighbour and a dashing soldier, with very different results.',
  },
  {
    kind: 'book',
    source_id: 'book-tess-of-the-durbervilles',
    title: 'Tess of the d’Urbervilles',
    authors: ['Thomas Hardy'],
    year: 1891,
    subjects: ['fiction', 'romance', 'rural england', 'tragedy'],
    description:
      'A poor country girl is sent to claim kinship with a wealthy family, and the harm done to her there follows her through work, marriage and the law.',
  },
  {
    kind: 'book',
    source_id: 'book-middlemarch',
    holdings: [
      { copies: 1, location: main },
      { copies: 1, location: reserve },
    ],
    title: 'Middlemarch',
    authors: ['George Eliot'],
    year: 1871,
    subjects: ['fiction', 'romance', 'realism', 'social classes'],
    description:
      'The idealistic Dorothea Brooke, an ambitious young doctor and a whole Midlands town try to live well, and mostly settle for doing a little good.',
  },

  // Adventure and mystery
  {
    kind: 'book',
    source_id: 'book-treasure-island',
    holdings: { copies: 3, unavailable: 1, location: main },
    title: 'Treasure Island',
    authors: ['Robert Louis Stevenson'],
    year: 1883,
    subjects: ['fiction', 'adventure', 'pirates', "children's literature"],
    description:
      'Young Jim Hawkins finds a pirate’s map and sails in search of buried gold, with the charming and dangerous cook Long John Silver on board.',
  },
  {
    kind: 'book',
    source_id: 'book-the-adventures-of-sherlock-holmes',
    holdings: [
      { copies: 2, location: main },
      { copies: 1, unavailable: 1, location: reserve },
    ],
    title: 'The Adventures of Sherlock Holmes',
    authors: ['Arthur Conan Doyle'],
    year: 1892,
    subjects: ['fiction', 'mystery', 'detectives', 'short stories'],
    description:
      'Twelve cases of the Baker Street detective, told by Dr Watson, from a blackmailing king to a red-headed pawnbroker and a speckled band.',
  },
  {
    kind: 'book',
    source_id: 'book-the-hound-of-the-baskervilles',
    holdings: { copies: 2, location: main },
    title: 'The Hound of the Baskervilles',
    authors: ['Arthur Conan Doyle'],
    year: 1902,
    subjects: ['fiction', 'mystery', 'detectives'],
    description:
      'A legend of a demon dog haunts an old Devon family; Holmes sends Watson to the bleak moor to watch the new heir and find what really kills Baskervilles.',
  },
  {
    kind: 'book',
    source_id: 'book-the-moonstone',
    holdings: { copies: 1, location: main },
    title: 'The Moonstone',
    authors: ['Wilkie Collins'],
    year: 1868,
    subjects: ['fiction', 'mystery', 'detectives'],
    description:
      'A sacred yellow diamond vanishes from a country house the night after a birthday party; several witnesses each tell their part of the search for it.',
  },
  {
    kind: 'book',
    source_id: 'book-the-woman-in-white',
    title: 'The Woman in White',
    authors: ['Wilkie Collins'],
    year: 1860,
    subjects: ['fiction', 'mystery', 'suspense'],
    description:
      'A drawing teacher meets a frightened woman dressed in white on a moonlit road, and is drawn into a plot of swapped identities and a stolen fortune.',
  },
  {
    kind: 'book',
    source_id: 'book-the-mysterious-affair-at-styles',
    holdings: { copies: 2, location: main },
    title: 'The Mysterious Affair at Styles',
    authors: ['Agatha Christie'],
    year: 1920,
    subjects: ['fiction', 'mystery', 'detectives'],
    description:
      'Hercule Poirot’s first case: the wealthy mistress of an Essex manor is poisoned, and nearly everyone in the house had a reason to want her dead.',
  },
  {
    kind: 'book',
    source_id: 'book-the-count-of-monte-cristo',
    holdings: { copies: 2, location: main },
    title: 'The Count of Monte Cristo',
    authors: ['Alexandre Dumas'],
    year: 1844,
    subjects: ['fiction', 'adventure', 'revenge'],
    description:
      'Betrayed on his wedding day and locked in an island fortress for years, a young sailor escapes, finds a hidden fortune and returns to settle every score.',
  },
  {
    kind: 'book',
    source_id: 'book-the-three-musketeers',
    holdings: { copies: 1, location: main },
    title: 'The Three Musketeers',
    authors: ['Alexandre Dumas'],
    year: 1844,
    subjects: ['fiction', 'adventure', 'history', 'swashbuckling'],
    description:
      'A hot-headed young Gascon joins three of the king’s musketeers and takes on Cardinal Richelieu’s agents, duels and intrigues to protect the queen.',
  },
  {
    kind: 'book',
    source_id: 'book-moby-dick',
    // Its only copy is away being rebound.
    holdings: { copies: 1, inRepair: 1, location: main },
    title: 'Moby-Dick; or, The Whale',
    authors: ['Herman Melville'],
    year: 1851,
    subjects: ['fiction', 'adventure', 'whaling', 'obsession'],
    description:
      'Ishmael signs on to a Nantucket whaler and learns that Captain Ahab means to hunt one white whale across the oceans, whatever it costs the crew.',
  },
  {
    kind: 'book',
    source_id: 'book-robinson-crusoe',
    holdings: { copies: 1, location: main },
    title: 'Robinson Crusoe',
    authors: ['Daniel Defoe'],
    year: 1719,
    subjects: ['fiction', 'adventure', 'survival', 'islands'],
    description:
      'A shipwrecked sailor spends decades alone on a Caribbean island, building a home, raising goats and keeping careful accounts of his fortunes.',
  },
  {
    kind: 'book',
    source_id: 'book-gullivers-travels',
    holdings: { copies: 2, location: main },
    title: 'Gulliver’s Travels',
    authors: ['Jonathan Swift'],
    year: 1726,
    subjects: ['fiction', 'satire', 'adventure', 'philosophy'],
    description:
      'A ship’s surgeon visits a land of tiny people, a land of giants, a flying island and a country ruled by wise horses, and comes home ashamed of humankind.',
  },
  {
    kind: 'book',
    source_id: 'book-don-quixote',
    holdings: [
      { copies: 1, location: main },
      { copies: 1, inRepair: 1, location: main },
    ],
    title: 'Don Quixote',
    authors: ['Miguel de Cervantes'],
    year: 1605,
    subjects: ['fiction', 'satire', 'adventure', 'spain'],
    description:
      'A Spanish gentleman who has read too many tales of chivalry sets out as a knight errant with his practical squire, Sancho Panza, and mistakes windmills for giants.',
  },
  {
    kind: 'book',
    source_id: 'book-the-call-of-the-wild',
    holdings: { copies: 2, location: main },
    title: 'The Call of the Wild',
    authors: ['Jack London'],
    year: 1903,
    subjects: ['fiction', 'adventure', 'animals', 'yukon'],
    description:
      'Buck, a pampered dog from California, is stolen and sold as a sled dog in the Klondike gold rush, where he learns the law of the wild.',
  },
  {
    kind: 'book',
    source_id: 'book-heart-of-darkness',
    // Its one copy is out on loan.
    holdings: { copies: 1, unavailable: 1, location: main },
    title: 'Heart of Darkness',
    authors: ['Joseph Conrad'],
    year: 1899,
    subjects: ['fiction', 'colonialism', 'novella'],
    description:
      'Marlow steams up the Congo River for a Belgian trading company to find Kurtz, an ivory agent whose station has become a place of horror.',
  },
  {
    kind: 'book',
    source_id: 'book-the-thirty-nine-steps',
    title: 'The Thirty-Nine Steps',
    authors: ['John Buchan'],
    year: 1915,
    subjects: ['fiction', 'adventure', 'spies', 'suspense'],
    description:
      'Richard Hannay finds a murdered stranger in his London flat and runs for the Scottish hills, chased by police and by a ring of foreign spies.',
  },

  // Children's literature
  {
    kind: 'book',
    source_id: 'book-the-wonderful-wizard-of-oz',
    holdings: { copies: 2, location: main },
    title: 'The Wonderful Wizard of Oz',
    authors: ['L. Frank Baum'],
    year: 1900,
    subjects: ['fiction', 'fantasy', "children's literature"],
    description:
      'A Kansas cyclone carries Dorothy and her dog Toto to a magical land, where she follows a yellow brick road with a scarecrow, a tin woodman and a cowardly lion.',
  },
  {
    kind: 'book',
    source_id: 'book-peter-and-wendy',
    holdings: { copies: 2, location: main },
    title: 'Peter and Wendy',
    authors: ['J. M. Barrie'],
    year: 1911,
    subjects: ['fiction', 'fantasy', "children's literature"],
    description:
      'Peter Pan, the boy who will not grow up, flies the Darling children to Neverland to meet mermaids, lost boys and the hook-handed pirate captain.',
  },
  {
    kind: 'book',
    source_id: 'book-the-secret-garden',
    holdings: { copies: 2, location: main },
    title: 'The Secret Garden',
    authors: ['Frances Hodgson Burnett'],
    year: 1911,
    subjects: ['fiction', "children's literature", 'gardens', 'friendship'],
    description:
      'A sour, lonely orphan sent to a Yorkshire manor finds a locked garden, brings it back to life and, with it, her sickly cousin.',
  },
  {
    kind: 'book',
    source_id: 'book-a-little-princess',
    holdings: { copies: 1, location: main },
    title: 'A Little Princess',
    authors: ['Frances Hodgson Burnett'],
    year: 1905,
    subjects: ['fiction', "children's literature", 'boarding school'],
    description:
      'Sara Crewe, once the richest pupil at a London boarding school, is left penniless and made a servant there, and keeps her kindness anyway.',
  },
  {
    kind: 'book',
    source_id: 'book-little-women',
    // Every copy is out on loan.
    holdings: { copies: 2, unavailable: 2, location: main },
    title: 'Little Women',
    authors: ['Louisa May Alcott'],
    year: 1868,
    subjects: ['fiction', "children's literature", 'family', 'coming of age'],
    description:
      'The four March sisters grow up in Massachusetts while their father is away at war: Meg, the writer Jo, shy Beth and artistic Amy.',
  },
  {
    kind: 'book',
    source_id: 'book-anne-of-green-gables',
    holdings: { copies: 2, location: main },
    title: 'Anne of Green Gables',
    authors: ['L. M. Montgomery'],
    year: 1908,
    subjects: ['fiction', "children's literature", 'coming of age'],
    description:
      'An elderly brother and sister on Prince Edward Island ask for an orphan boy to help on the farm and get Anne, a talkative red-haired girl with a huge imagination.',
  },
  {
    kind: 'book',
    source_id: 'book-the-wind-in-the-willows',
    holdings: { copies: 1, location: main },
    title: 'The Wind in the Willows',
    authors: ['Kenneth Grahame'],
    year: 1908,
    subjects: ['fiction', "children's literature", 'animals', 'friendship'],
    description:
      'Mole, Ratty and the wise Badger share riverside picnics and try to rescue the boastful Mr Toad from his passion for motor cars.',
  },
  {
    kind: 'book',
    source_id: 'book-the-jungle-book',
    holdings: { copies: 2, location: main },
    title: 'The Jungle Book',
    authors: ['Rudyard Kipling'],
    year: 1894,
    subjects: ['fiction', "children's literature", 'animals', 'india'],
    description:
      'Stories of Mowgli, a boy raised by wolves and taught by a bear and a panther, and of the brave mongoose Rikki-Tikki-Tavi.',
  },
  {
    kind: 'book',
    source_id: 'book-black-beauty',
    holdings: { copies: 1, location: main },
    title: 'Black Beauty',
    authors: ['Anna Sewell'],
    year: 1877,
    subjects: ['fiction', "children's literature", 'animals', 'horses'],
    description:
      'A horse tells his own life story, from a gentle start in the country to hard work pulling London cabs, and pleads for kindness to animals.',
  },
  {
    kind: 'book',
    source_id: 'book-heidi',
    title: 'Heidi',
    authors: ['Johanna Spyri'],
    year: 1881,
    subjects: ['fiction', "children's literature", 'switzerland'],
    description:
      'An orphaned girl is sent to live with her gruff grandfather in the Swiss Alps, and pines for the mountains when she is taken away to a city house.',
  },
  {
    kind: 'book',
    source_id: 'book-the-adventures-of-tom-sawyer',
    holdings: { copies: 2, location: main },
    title: 'The Adventures of Tom Sawyer',
    authors: ['Mark Twain'],
    year: 1876,
    subjects: ['fiction', "children's literature", 'adventure', 'mississippi'],
    description:
      'A mischievous boy in a Mississippi river town tricks his friends into whitewashing a fence, witnesses a murder in a graveyard and gets lost in a cave.',
  },
  {
    kind: 'book',
    source_id: 'book-adventures-of-huckleberry-finn',
    holdings: [
      { copies: 2, location: main },
      { copies: 1, location: reserve },
    ],
    title: 'Adventures of Huckleberry Finn',
    authors: ['Mark Twain'],
    year: 1884,
    subjects: ['fiction', 'adventure', 'slavery', 'mississippi'],
    description:
      'Huck escapes his violent father and rafts down the Mississippi with Jim, a man fleeing slavery, and has to decide what he owes his friend.',
  },
  {
    kind: 'book',
    source_id: 'book-pinocchio',
    holdings: { copies: 1, location: main },
    title: 'The Adventures of Pinocchio',
    authors: ['Carlo Collodi'],
    year: 1883,
    subjects: ['fiction', "children's literature", 'fantasy', 'italy'],
    description:
      'A wooden puppet carved by a poor woodworker runs off, lies, is swallowed by a giant fish and slowly learns what it would take to become a real boy.',
  },
  {
    kind: 'book',
    source_id: 'book-the-railway-children',
    holdings: { copies: 1, location: main },
    title: 'The Railway Children',
    authors: ['E. Nesbit'],
    year: 1906,
    subjects: ['fiction', "children's literature", 'family', 'railways'],
    description:
      'When their father is taken away, three children move with their mother to a cottage by a railway line and make friends with the trains and the people on them.',
  },

  // Philosophy
  {
    kind: 'book',
    source_id: 'book-meditations',
    holdings: [
      { copies: 2, location: law },
      { copies: 1, location: reserve },
    ],
    title: 'Meditations',
    authors: ['Marcus Aurelius'],
    year: 180,
    subjects: ['philosophy', 'stoicism', 'non-fiction'],
    description:
      'Private notes a Roman emperor wrote to himself on campaign: reminders to accept what he cannot change, to do his duty and to treat others fairly.',
  },
  {
    kind: 'book',
    source_id: 'book-beyond-good-and-evil',
    holdings: { copies: 1, location: law },
    title: 'Beyond Good and Evil',
    authors: ['Friedrich Nietzsche'],
    year: 1886,
    subjects: ['philosophy', 'ethics', 'non-fiction'],
    description:
      'A sharp, aphoristic attack on the hidden assumptions of earlier philosophers, and a call for thinkers willing to question morality itself.',
  },
  {
    kind: 'book',
    source_id: 'book-thus-spoke-zarathustra',
    title: 'Thus Spoke Zarathustra',
    authors: ['Friedrich Nietzsche'],
    year: 1883,
    subjects: ['philosophy', 'fiction'],
    description:
      'A prophet comes down from his mountain to teach a crowd that is not ready for him, in a philosophical novel written like scripture.',
  },
  {
    kind: 'book',
    source_id: 'book-on-liberty',
    holdings: [
      { copies: 2, location: law },
      { copies: 1, location: reserve },
    ],
    title: 'On Liberty',
    authors: ['John Stuart Mill'],
    year: 1859,
    subjects: ['philosophy', 'political science', 'non-fiction'],
    description:
      'Mill argues that society may limit a person’s freedom only to prevent harm to others, and defends free speech even for opinions we think are wrong.',
  },
  {
    kind: 'book',
    source_id: 'book-utilitarianism',
    holdings: { copies: 1, location: law },
    title: 'Utilitarianism',
    authors: ['John Stuart Mill'],
    year: 1863,
    subjects: ['philosophy', 'ethics', 'non-fiction'],
    description:
      'A short defence of the idea that right actions are those that bring about the most happiness, with Mill’s answers to its critics.',
  },
  {
    kind: 'book',
    source_id: 'book-leviathan',
    holdings: { copies: 1, location: law },
    title: 'Leviathan',
    authors: ['Thomas Hobbes'],
    year: 1651,
    subjects: ['philosophy', 'political science', 'non-fiction'],
    description:
      'Without government, Hobbes warns, life would be nasty, brutish and short; people therefore agree to hand their power to a sovereign who keeps the peace.',
  },
  {
    kind: 'book',
    source_id: 'book-discourse-on-the-method',
    holdings: { copies: 1, location: science },
    title: 'Discourse on the Method',
    authors: ['René Descartes'],
    year: 1637,
    subjects: ['philosophy', 'science', 'non-fiction'],
    description:
      'Descartes resolves to doubt everything he can, finds the one thing he cannot doubt, “I think, therefore I am”, and builds a method for the sciences from there.',
  },
  {
    kind: 'book',
    source_id: 'book-a-vindication-of-the-rights-of-woman',
    holdings: { copies: 2, location: law },
    title: 'A Vindication of the Rights of Woman',
    authors: ['Mary Wollstonecraft'],
    year: 1792,
    subjects: ['philosophy', 'feminism', 'education', 'non-fiction'],
    description:
      'A founding text of feminism: women only seem less rational than men because they are denied an education, and a just society would teach them as equals.',
  },
  {
    kind: 'book',
    source_id: 'book-walden',
    // Its one copy is in repair.
    holdings: { copies: 1, inRepair: 1, location: main },
    title: 'Walden; or, Life in the Woods',
    authors: ['Henry David Thoreau'],
    year: 1854,
    subjects: ['philosophy', 'nature', 'non-fiction'],
    description:
      'Thoreau builds a cabin by a Massachusetts pond, lives there simply for two years and reports what a person really needs.',
  },
  {
    kind: 'book',
    source_id: 'book-the-prince',
    holdings: { copies: 2, location: law },
    title: 'The Prince',
    authors: ['Niccolò Machiavelli'],
    year: 1532,
    subjects: ['philosophy', 'political science', 'non-fiction'],
    description:
      'A practical handbook for rulers who want to gain and keep power, frank about when cruelty and deception work better than virtue.',
  },
  {
    kind: 'book',
    source_id: 'book-two-treatises-of-government',
    holdings: { copies: 1, location: law },
    title: 'Two Treatises of Government',
    authors: ['John Locke'],
    year: 1689,
    subjects: ['philosophy', 'political science', 'non-fiction'],
    description:
      'Locke rejects the divine right of kings and argues that governments exist to protect life, liberty and property, and may be replaced when they fail.',
  },
  {
    kind: 'book',
    source_id: 'book-critique-of-pure-reason',
    title: 'Critique of Pure Reason',
    authors: ['Immanuel Kant'],
    year: 1781,
    subjects: ['philosophy', 'metaphysics', 'non-fiction'],
    description:
      'Kant asks what the mind can know before any experience, and concludes that space and causation are forms our minds give to the world.',
  },
  {
    kind: 'book',
    source_id: 'book-the-social-contract',
    holdings: { copies: 1, location: law },
    title: 'The Social Contract',
    authors: ['Jean-Jacques Rousseau'],
    year: 1762,
    subjects: ['philosophy', 'political science', 'non-fiction'],
    description:
      'Starting from the claim that people are born free yet everywhere in chains, Rousseau asks what could make political authority legitimate.',
  },
  {
    kind: 'book',
    source_id: 'book-candide',
    holdings: { copies: 2, location: main },
    title: 'Candide',
    authors: ['Voltaire'],
    year: 1759,
    subjects: ['fiction', 'philosophy', 'satire'],
    description:
      'A naive young man taught that all is for the best in the best of all possible worlds meets war, earthquake and shipwreck, and finally decides to tend his garden.',
  },

  // History and lives
  {
    kind: 'book',
    source_id: 'book-decline-and-fall-of-the-roman-empire',
    holdings: [
      { copies: 1, location: main },
      { copies: 1, location: reserve },
    ],
    title: 'The History of the Decline and Fall of the Roman Empire',
    authors: ['Edward Gibbon'],
    year: 1776,
    subjects: ['history', 'rome', 'non-fiction'],
    description:
      'A vast, ironic narrative of thirteen centuries, from the height of Roman power under the Antonines to the fall of Constantinople.',
  },
  {
    kind: 'book',
    source_id: 'book-the-souls-of-black-folk',
    holdings: { copies: 2, location: main },
    title: 'The Souls of Black Folk',
    authors: ['W. E. B. Du Bois'],
    year: 1903,
    subjects: ['history', 'sociology', 'civil rights', 'non-fiction'],
    description:
      'Pieces on Black life in the United States after emancipation, introducing the idea of double consciousness and the colour line as the problem of the century.',
  },
  {
    kind: 'book',
    source_id: 'book-narrative-of-frederick-douglass',
    holdings: [
      { copies: 2, location: main },
      { copies: 1, location: reserve },
    ],
    title: 'Narrative of the Life of Frederick Douglass, an American Slave',
    authors: ['Frederick Douglass'],
    year: 1845,
    subjects: ['history', 'slavery', 'autobiography', 'non-fiction'],
    description:
      'Douglass describes his childhood in slavery in Maryland, how he taught himself to read, and his escape to freedom in the North.',
  },
  {
    kind: 'book',
    source_id: 'book-autobiography-of-benjamin-franklin',
    holdings: { copies: 1, location: main },
    title: 'The Autobiography of Benjamin Franklin',
    authors: ['Benjamin Franklin'],
    year: 1791,
    subjects: ['history', 'autobiography', 'non-fiction'],
    description:
      'A printer’s apprentice who became a scientist and statesman recounts his rise, and his plan for improving his character one virtue a week.',
  },
  {
    kind: 'book',
    source_id: 'book-up-from-slavery',
    holdings: { copies: 1, location: main },
    title: 'Up from Slavery',
    authors: ['Booker T. Washington'],
    year: 1901,
    subjects: ['history', 'autobiography', 'education', 'non-fiction'],
    description:
      'Born enslaved in Virginia, Washington tells how he worked his way through school and built the Tuskegee Institute almost from nothing.',
  },
  {
    kind: 'book',
    source_id: 'book-twelve-years-a-slave',
    holdings: { copies: 1, location: main },
    title: 'Twelve Years a Slave',
    authors: ['Solomon Northup'],
    year: 1853,
    subjects: ['history', 'slavery', 'autobiography', 'non-fiction'],
    description:
      'A free Black violinist from New York is kidnapped, sold into slavery in Louisiana and spends twelve years trying to get word home.',
  },
  {
    kind: 'book',
    source_id: 'book-common-sense',
    holdings: { copies: 2, location: law },
    title: 'Common Sense',
    authors: ['Thomas Paine'],
    year: 1776,
    subjects: ['history', 'political science', 'american independence', 'non-fiction'],
    description:
      'A plain-spoken pamphlet that persuaded thousands of colonists that breaking with the British crown was both right and practical.',
  },
  {
    kind: 'book',
    source_id: 'book-the-federalist',
    holdings: [
      { copies: 1, location: law },
      { copies: 1, location: reserve },
    ],
    title: 'The Federalist',
    authors: ['Alexander Hamilton', 'James Madison', 'John Jay'],
    year: 1788,
    subjects: ['history', 'political science', 'law', 'non-fiction'],
    description:
      'Eighty-five newspaper pieces urging New Yorkers to ratify the proposed United States Constitution, explaining its checks and balances as they go.',
  },
  {
    kind: 'book',
    source_id: 'book-democracy-in-america',
    holdings: { copies: 1, location: law },
    title: 'Democracy in America',
    authors: ['Alexis de Tocqueville'],
    year: 1835,
    subjects: ['history', 'political science', 'non-fiction'],
    description:
      'A young aristocrat tours the United States and reports on its townships, courts and associations, and on the tyranny a majority can exercise.',
  },
  {
    kind: 'book',
    source_id: 'book-the-travels-of-marco-polo',
    title: 'The Travels of Marco Polo',
    authors: ['Marco Polo', 'Rustichello da Pisa'],
    year: 1300,
    subjects: ['history', 'travel', 'asia', 'non-fiction'],
    description:
      'A Venetian merchant’s account, dictated in prison, of his journey along the Silk Road and his years at the court of Kublai Khan.',
  },

  // Poetry
  {
    kind: 'book',
    source_id: 'book-leaves-of-grass',
    holdings: { copies: 2, location: main },
    title: 'Leaves of Grass',
    authors: ['Walt Whitman'],
    year: 1855,
    subjects: ['poetry', 'american literature'],
    description:
      'Whitman’s long-lined free verse celebrates the body, democracy and ordinary working people, beginning with his “Song of Myself”.',
  },
  {
    kind: 'book',
    source_id: 'book-songs-of-innocence-and-of-experience',
    holdings: { copies: 1, location: main },
    title: 'Songs of Innocence and of Experience',
    authors: ['William Blake'],
    year: 1794,
    subjects: ['poetry', 'romanticism'],
    description:
      'Paired poems, such as “The Lamb” and “The Tyger”, that show the world first through a child’s trust and then through the eyes of hard experience.',
  },
  {
    kind: 'book',
    source_id: 'book-lyrical-ballads',
    holdings: [
      { copies: 1, location: main },
      { copies: 1, location: reserve },
    ],
    title: 'Lyrical Ballads',
    authors: ['William Wordsworth', 'Samuel Taylor Coleridge'],
    year: 1798,
    subjects: ['poetry', 'romanticism'],
    description:
      'The joint collection that launched English Romantic poetry, from the Ancient Mariner’s cursed voyage to Wordsworth’s lines above Tintern Abbey.',
  },
  {
    kind: 'book',
    source_id: 'book-poems-emily-dickinson',
    holdings: { copies: 1, location: main },
    title: 'Poems',
    authors: ['Emily Dickinson'],
    year: 1890,
    subjects: ['poetry', 'american literature'],
    description:
      'The first collection of Dickinson’s short, dash-filled poems on death, nature and the inner life, published after her death by her family and friends.',
  },
  {
    kind: 'book',
    source_id: 'book-the-divine-comedy',
    holdings: { copies: 2, location: main },
    title: 'The Divine Comedy',
    authors: ['Dante Alighieri'],
    year: 1320,
    subjects: ['poetry', 'epic', 'religion'],
    description:
      'Guided by the poet Virgil and then by Beatrice, Dante journeys down through Hell, up the mountain of Purgatory and into Paradise.',
  },
  {
    kind: 'book',
    source_id: 'book-paradise-lost',
    holdings: { copies: 1, location: main },
    title: 'Paradise Lost',
    authors: ['John Milton'],
    year: 1667,
    subjects: ['poetry', 'epic', 'religion'],
    description:
      'An epic in blank verse about Satan’s rebellion against God and the fall of Adam and Eve, with a rebel angel who nearly steals the poem.',
  },
  {
    kind: 'book',
    source_id: 'book-the-raven-and-other-poems',
    holdings: { copies: 1, location: main },
    title: 'The Raven and Other Poems',
    authors: ['Edgar Allan Poe'],
    year: 1845,
    subjects: ['poetry', 'horror'],
    description:
      'Poe’s collection that begins with the grieving scholar whose midnight visitor answers every question with one word: “Nevermore”.',
  },
  {
    kind: 'book',
    source_id: 'book-goblin-market-and-other-poems',
    title: 'Goblin Market and Other Poems',
    authors: ['Christina Rossetti'],
    year: 1862,
    subjects: ['poetry', 'fairy tales'],
    description:
      'The title poem tells of two sisters tempted by goblin merchants selling enchanted fruit, and of the love that saves the one who eats.',
  },
  {
    kind: 'book',
    source_id: 'book-shakespeares-sonnets',
    holdings: { copies: 2, location: main },
    title: 'Shakespeare’s Sonnets',
    authors: ['William Shakespeare'],
    year: 1609,
    subjects: ['poetry', 'love poems'],
    description:
      'A hundred and fifty-four sonnets, written to a fair young man and a dark lady, on beauty, rivalry, ageing and whether poems can outlast their subjects.',
  },
  {
    kind: 'book',
    source_id: 'book-the-prophet',
    holdings: { copies: 1, location: main },
    title: 'The Prophet',
    authors: ['Kahlil Gibran'],
    year: 1923,
    subjects: ['poetry', 'philosophy', 'spirituality'],
    description:
      'Before sailing home, a wise man answers the townspeople’s questions about love, work, children, freedom and death in short prose poems.',
  },

  // Drama
  {
    kind: 'book',
    source_id: 'book-hamlet',
    holdings: [
      { copies: 2, location: main },
      { copies: 1, unavailable: 1, location: reserve },
    ],
    title: 'Hamlet',
    authors: ['William Shakespeare'],
    year: 1603,
    subjects: ['drama', 'tragedy', 'revenge'],
    description:
      'A Danish prince is told by his father’s ghost that his uncle murdered the king, and his hesitation to act brings ruin to the whole court.',
  },
  {
    kind: 'book',
    source_id: 'book-a-dolls-house',
    holdings: { copies: 1, location: main },
    title: 'A Doll’s House',
    authors: ['Henrik Ibsen'],
    year: 1879,
    subjects: ['drama', 'marriage', 'feminism'],
    description:
      'Nora seems a playful, pampered wife until an old secret loan comes to light and she begins to see her marriage as it really is.',
  },
  {
    kind: 'book',
    source_id: 'book-the-importance-of-being-earnest',
    holdings: { copies: 2, location: main },
    title: 'The Importance of Being Earnest',
    authors: ['Oscar Wilde'],
    year: 1895,
    subjects: ['drama', 'comedy', 'satire'],
    description:
      'Two young gentlemen invent alter egos to escape their duties, and both end up courting as a man called Ernest, with a handbag to explain everything.',
  },
  {
    kind: 'book',
    source_id: 'book-the-cherry-orchard',
    title: 'The Cherry Orchard',
    authors: ['Anton Chekhov'],
    year: 1904,
    subjects: ['drama', 'comedy', 'russia'],
    description:
      'An aristocratic family returns to its heavily mortgaged estate and cannot bring itself to save it, while a former serf’s son waits to buy the orchard.',
  },
  {
    kind: 'book',
    source_id: 'book-pygmalion',
    holdings: { copies: 1, location: main },
    title: 'Pygmalion',
    authors: ['George Bernard Shaw'],
    year: 1913,
    subjects: ['drama', 'comedy', 'social classes', 'language'],
    description:
      'A phonetics professor bets that he can pass off a London flower seller as a duchess by teaching her to speak, and never asks what she wants.',
  },

  // Economics
  {
    kind: 'book',
    source_id: 'book-the-wealth-of-nations',
    // One copy on loan, the other in repair: none to reserve for now.
    holdings: { copies: 2, unavailable: 1, inRepair: 1, location: law },
    title: 'An Inquiry into the Nature and Causes of the Wealth of Nations',
    authors: ['Adam Smith'],
    year: 1776,
    subjects: ['economics', 'trade', 'non-fiction'],
    description:
      'Smith explains how the division of labour and free exchange make nations rich, and how self-interest guided by competition can serve the public good.',
  },
  {
    kind: 'book',
    source_id: 'book-principles-of-political-economy-and-taxation',
    holdings: { copies: 1, location: law },
    title: 'On the Principles of Political Economy and Taxation',
    authors: ['David Ricardo'],
    year: 1817,
    subjects: ['economics', 'trade', 'non-fiction'],
    description:
      'Ricardo sets out comparative advantage, showing why two countries both gain from trade even when one is better at making everything.',
  },
  {
    kind: 'book',
    source_id: 'book-the-theory-of-the-leisure-class',
    holdings: { copies: 1, location: law },
    title: 'The Theory of the Leisure Class',
    authors: ['Thorstein Veblen'],
    year: 1899,
    subjects: ['economics', 'sociology', 'non-fiction'],
    description:
      'Veblen coins conspicuous consumption: the wealthy spend lavishly not for use but to display their status, and everyone below imitates them.',
  },
  {
    kind: 'book',
    source_id: 'book-capital-volume-one',
    holdings: [
      { copies: 1, location: law },
      { copies: 1, location: reserve },
    ],
    title: 'Capital: A Critique of Political Economy, Volume I',
    authors: ['Karl Marx'],
    year: 1867,
    subjects: ['economics', 'philosophy', 'non-fiction'],
    description:
      'Marx analyses the commodity, labour and wages to argue that profit comes from unpaid work, and describes the factories of industrial Britain in detail.',
  },
  {
    kind: 'book',
    source_id: 'book-principles-of-economics',
    holdings: { copies: 1, location: law },
    title: 'Principles of Economics',
    authors: ['Alfred Marshall'],
    year: 1890,
    subjects: ['economics', 'non-fiction'],
    description:
      'The textbook that made supply and demand curves standard, explaining prices, elasticity and the consumer’s surplus with diagrams and everyday examples.',
  },
  {
    kind: 'book',
    source_id: 'book-the-economic-consequences-of-the-peace',
    holdings: { copies: 1, location: law },
    title: 'The Economic Consequences of the Peace',
    authors: ['John Maynard Keynes'],
    year: 1919,
    subjects: ['economics', 'history', 'non-fiction'],
    description:
      'A British treasury adviser resigns from the Versailles conference and warns that the reparations demanded of Germany will wreck the European economy.',
  },
  {
    kind: 'book',
    source_id: 'book-progress-and-poverty',
    title: 'Progress and Poverty',
    authors: ['Henry George'],
    year: 1879,
    subjects: ['economics', 'land', 'non-fiction'],
    description:
      'Why does want grow alongside wealth? George blames rising land rents and proposes a single tax on the value of land.',
  },

  // Science
  {
    kind: 'book',
    source_id: 'book-on-the-origin-of-species',
    holdings: [
      { copies: 2, location: science },
      { copies: 1, location: reserve },
    ],
    title: 'On the Origin of Species',
    authors: ['Charles Darwin'],
    year: 1859,
    subjects: ['science', 'biology', 'evolution', 'non-fiction'],
    description:
      'Darwin gathers evidence from pigeon breeders, fossils and island species to argue that living things change over generations by natural selection.',
  },
  {
    kind: 'book',
    source_id: 'book-the-voyage-of-the-beagle',
    holdings: { copies: 1, location: science },
    title: 'The Voyage of the Beagle',
    authors: ['Charles Darwin'],
    year: 1839,
    subjects: ['science', 'natural history', 'travel', 'non-fiction'],
    description:
      'The young naturalist’s journal of five years aboard a survey ship, from Brazilian forests to the finches and tortoises of the Galápagos.',
  },
  {
    kind: 'book',
    source_id: 'book-relativity',
    holdings: { copies: 2, location: science },
    title: 'Relativity: The Special and General Theory',
    authors: ['Albert Einstein'],
    year: 1916,
    subjects: ['science', 'physics', 'non-fiction'],
    description:
      'Einstein’s own explanation, for readers without advanced mathematics, of why moving clocks run slow and how gravity bends space.',
  },
  {
    kind: 'book',
    source_id: 'book-opticks',
    title: 'Opticks',
    authors: ['Isaac Newton'],
    year: 1704,
    subjects: ['science', 'physics', 'light', 'non-fiction'],
    description:
      'Newton’s experiments with prisms show that white light is a mixture of colours, followed by his famous unanswered queries about the nature of light.',
  },
  {
    kind: 'book',
    source_id: 'book-dialogue-concerning-the-two-chief-world-systems',
    holdings: { copies: 1, location: science },
    title: 'Dialogue Concerning the Two Chief World Systems',
    authors: ['Galileo Galilei'],
    year: 1632,
    subjects: ['science', 'astronomy', 'non-fiction'],
    description:
      'Three friends debate whether the Earth or the Sun sits at the centre of the heavens; the book’s case for Copernicus led to Galileo’s trial.',
  },
  {
    kind: 'book',
    source_id: 'book-the-chemical-history-of-a-candle',
    holdings: { copies: 1, location: science },
    title: 'The Chemical History of a Candle',
    authors: ['Michael Faraday'],
    year: 1861,
    subjects: ['science', 'chemistry', 'non-fiction'],
    description:
      'Six lectures for young people at the Royal Institution that use a single burning candle to explain combustion, air and water.',
  },
];
